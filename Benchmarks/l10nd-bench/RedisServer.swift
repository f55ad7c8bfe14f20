import Foundation

/// Debian's `redis-server`, started by the benchmark for the Redis GET baseline of issue 14:
/// on a Unix socket in a directory of its own, with no TCP port and nothing saved to disk;
/// stopped when the value goes away.
///
/// `nil` when Redis is not installed (`scripts/install-dependencies redis-server`) or does
/// not answer within five seconds, so the benchmark can leave the baseline out and say so.
///
/// ```swift
/// guard let redis = RedisServer() else { print("    (no redis-server: Redis baseline left out)"); return }
/// // a client speaks RESP to redis.socketPath
/// ```
final class RedisServer {
    /// Where Debian installs the server.
    static let executable = "/usr/bin/redis-server"

    /// The Unix socket Redis listens on.
    let socketPath: String
    /// The server's process id, for ``ProcessMemory``.
    var pid: Int32 { process.processIdentifier }
    private let directory: BenchmarkDirectory
    private let process = Process()

    init?() {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else { return nil }
        directory = BenchmarkDirectory("redis")
        socketPath = directory.path + "/redis.sock"
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "--port", "0", "--unixsocket", socketPath, "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--logfile", directory.path + "/redis.log",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        // Ready once the socket exists: Redis creates it after loading, just before serving.
        let deadline = ContinuousClock.now + .seconds(5)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                stop()
                return nil
            }
            usleep(10_000)
        }
    }

    deinit { stop() }

    private func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
