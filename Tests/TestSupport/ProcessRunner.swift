public import Foundation

/// Runs a built executable to completion and captures what it printed.
public struct ProcessOutput: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output, decoded as UTF-8.
    public var stdout: String
    /// Standard error, decoded as UTF-8.
    public var stderr: String
}

/// Runs executables for end-to-end tests, with a time limit so a hang fails the test.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, feeding it `stdin` (nothing by default), and
    /// waits at most `timeout` seconds.
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
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            group.wait()
            throw ProcessTimeout(executable: executable, arguments: arguments, timeout: timeout)
        }
        process.waitUntilExit()
        group.wait()
        return ProcessOutput(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
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
