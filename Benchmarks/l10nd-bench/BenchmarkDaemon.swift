import Foundation
import Localization
import LocalizationWire

/// A real `l10nd` from the build directory for one benchmark, stopped when released.
final class BenchmarkDaemon {
    let process = Process()
    let socket: String

    /// Starts `l10nd --resources … --socket SOCKET` plus `arguments`; `nil` (with a line
    /// saying why) when there is no built daemon or it does not start.
    init?(resources: [String], socket: String, arguments: [String] = [], environment: [String: String]? = nil) {
        guard let path = siblingExecutable("l10nd") ?? buildDaemon() else {
            print("  skipped: no l10nd next to this benchmark, and building it failed")
            return nil
        }
        self.socket = socket
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            resources.flatMap { ["--resources", $0] } + ["--socket", socket, "--log-level", "warning"] + arguments
        if let environment { process.environment = environment }
        // Not the benchmark's own stdout: a daemon outliving a crashed benchmark would hold
        // the reader of that pipe open forever.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("  skipped: l10nd did not start: \(error)")
            return nil
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// Waits until the daemon answers `hello` (at most `timeout` seconds).
    func waitUntilAnswering(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let connection = try? DaemonConnection(socketPath: socket, timeout: 5),
                case .fields? = try? connection.send(.hello)
            {
                return true
            }
            usleep(20_000)
        }
        print("  stopped: l10nd did not answer on \(socket)")
        return false
    }
}

/// Builds `l10nd` in this benchmark's configuration, so `swift run -c release l10nd-bench`
/// (which builds only the benchmark) finds the daemon next to itself.
private func buildDaemon() -> String? {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let configuration = binary.deletingLastPathComponent().lastPathComponent == "release" ? "release" : "debug"
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    print("  building l10nd (\(configuration)) for the benchmark…")
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    build.arguments = ["swift", "build", "-c", configuration, "--product", "l10nd"]
    build.currentDirectoryURL = packageRoot
    build.standardOutput = FileHandle.nullDevice
    guard (try? build.run()) != nil else { return nil }
    build.waitUntilExit()
    return build.terminationStatus == 0 ? siblingExecutable("l10nd") : nil
}

/// A fresh temp directory for one benchmark, removed when released.
final class BenchmarkDirectory {
    let path: String

    init(_ name: String) {
        path = FileManager.default.temporaryDirectory.path + "/l10nd-bench-\(name)-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Milliseconds from `start` to now.
func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// The `fraction` percentile of `samples` (nearest rank).
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// A built executable of this package next to the running benchmark.
func siblingExecutable(_ name: String) -> String? {
    let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent(name).path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
}
