public import Foundation
import Glibc

/// Runs a built executable to completion and captures what it printed.
public struct ProcessOutput: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output, decoded as UTF-8.
    public var stdout: String
    /// Standard error, decoded as UTF-8.
    public var stderr: String
}

/// Runs executables for end-to-end tests, with a time limit so a hang fails the test: the
/// limit covers the child and whatever it started that still holds its output open.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, feeding it `stdin` (nothing by default), and
    /// waits at most `timeout` seconds for it to exit and for its output to end; past them,
    /// its process group is stopped (SIGTERM, then SIGKILL) and ``ProcessTimeout`` thrown.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, stdin: String? = nil, timeout: TimeInterval = 30
    ) throws -> ProcessOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = SanitizerEnvironment.adding(to: environment) }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        // Read both pipes while the process runs so a full pipe cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        // The pipes end when every process holding them has closed them, not when the child
        // exits: a grandchild it left running (a daemon it started, `sleep &`) keeps them open.
        // Foundation starts the child in a process group of its own, so on time-out the whole
        // group goes, and the pipes are waited for a bounded time at most, so that even a
        // grandchild that left the group (`setsid`) cannot hold the test. A child that exited
        // in time leaves its readers a second more to drain them.
        let drained = { group.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow) + 1) == .success }
        if process.isRunning || !drained() {
            stop(process, group: group)
            throw ProcessTimeout(executable: executable, arguments: arguments, timeout: timeout)
        }
        process.waitUntilExit()
        return ProcessOutput(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Stops `process` and its process group: SIGTERM, and SIGKILL to whatever is left after
    /// a grace of 2 s; then waits at most 5 s more for `readers`, the pipes' readers.
    private static func stop(_ process: Process, group readers: DispatchGroup) {
        let pid = process.processIdentifier
        guard pid > 1 else { return }
        // The child itself too, should it not lead a group (`kill(-pid)` then fails).
        kill(-pid, SIGTERM)
        if process.isRunning { kill(pid, SIGTERM) }
        let grace = Date().addingTimeInterval(2)
        while process.isRunning, Date() < grace { usleep(10_000) }
        _ = readers.wait(timeout: .now() + max(0, grace.timeIntervalSinceNow))
        kill(-pid, SIGKILL)
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        _ = readers.wait(timeout: .now() + 5)
    }
}

/// A process that did not finish within its time limit.
public struct ProcessTimeout: Error, CustomStringConvertible {
    /// The executable that hung.
    public var executable: String
    /// Its arguments.
    public var arguments: [String]
    /// The limit, in seconds.
    public var timeout: TimeInterval
    /// A message for the test log.
    public var description: String { "\(executable) \(arguments.joined(separator: " ")) ran past \(timeout) s" }
}
