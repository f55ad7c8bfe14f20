import Foundation

/// `l10nctl watch` against a running daemon, its standard output in a file, started and
/// subscribed: an edit made after `init` returns is seen (before the daemon counts the
/// watcher as a subscriber, a change may go unannounced to it). Stopped when released.
public final class WatchProcess {
    private let process = Process()
    private let outputDirectory: TemporaryDirectory
    private let outputPath: String

    /// Starts `l10nctl watch --socket …` (and `arguments`) and waits until the daemon has it as a subscriber.
    public init(daemon: DaemonProcess, arguments: [String] = []) throws {
        outputDirectory = try TemporaryDirectory()
        outputPath = try outputDirectory.write("", to: "watch.out")
        process.executableURL = URL(fileURLWithPath: PackagePaths.executable("l10nctl"))
        process.arguments = ["watch", "--socket", daemon.socketPath] + arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            let status = try daemon.request(["op": "status"])
            if ((status["server"] as? [String: Any])?["subscribers"] as? Int ?? 0) > 0 { break }
            usleep(10_000)
        }
    }

    /// What watch has printed once it has printed `lines` lines, or when `timeout` has passed.
    public func output(lines: Int = 1, timeout: Double = 10) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(timeout)
        while text.split(separator: "\n").count < lines, Date() < deadline {
            usleep(10_000)
            text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }
        return text
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
