public import Foundation
import Glibc

/// Any executable run in the background for a test, its stderr kept in a log file, and
/// stopped (SIGTERM, then SIGKILL) when the test lets go of it. For what ``DaemonProcess``
/// cannot start: `l10nd` behind `systemd-socket-activate` or a shell, or with no socket of
/// its own to wait for.
public final class BackgroundProcess {
    /// The running process.
    public let process: Process
    /// Where its stderr goes.
    public let logPath: String
    private let directory: TemporaryDirectory

    /// Starts `executable` with `arguments` and exactly `environment` (plus `PATH` and the
    /// ``SanitizerEnvironment`` options).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        directory = try TemporaryDirectory(prefix: "l10nd-process")
        logPath = directory.path + "/stderr.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = SanitizerEnvironment.adding(
            to: ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new })
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// What it wrote to stderr so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// The program the process runs now, from `/proc/PID/exe`: it changes when the process
    /// execs another program (as `systemd-socket-activate` does on the first connection).
    public var currentExecutable: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }

    /// Sends `signal` while the process runs.
    public func send(signal number: Int32) {
        if process.isRunning { kill(pid, number) }
    }

    /// Waits up to `timeout` seconds for the process to exit by itself; its status, or nil
    /// while it still runs.
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGTERM, wait up to `timeout` seconds, then SIGKILL. Returns the exit status (-9
    /// when it had to be killed).
    @discardableResult
    public func stop(timeout: TimeInterval = 10) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGTERM)
        if let status = waitForExit(timeout: timeout) { return status }
        kill(pid, SIGKILL)
        process.waitUntilExit()
        return -9
    }
}
