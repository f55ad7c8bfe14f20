public import Foundation
import Glibc

/// A real `l10nd` started from the build directory for one test, on a socket in a fresh
/// temp directory, and stopped (SIGTERM, then SIGKILL) when the test lets go of it.
public final class DaemonProcess {
    /// The running process.
    public let process: Process
    /// The socket it listens on.
    public let socketPath: String
    /// Where its stderr goes: read it for log lines.
    public let logPath: String
    private let directory: TemporaryDirectory

    /// Starts `l10nd --resources …` plus `arguments`, waiting until it answers `hello`.
    ///
    /// With `user`, the daemon runs as that user and group id (through `setpriv`, with no
    /// supplementary groups), and the socket's directory is handed to it: tests run as root,
    /// to whom file permissions do not apply, so permission faults need an ordinary user.
    /// With `standardError`, the daemon's stderr goes there instead of ``logPath`` (a pipe, a
    /// file on a full disk), and ``log`` stays empty. With `launcher`, the daemon is started
    /// through that command (`unshare --mount …`: a mount namespace of its own), which must
    /// exec it in place, so the process is the daemon. `logLevel` is passed as `--log-level`
    /// (nil passes none: the configuration file's `log_level` is then in effect).
    public init(
        resources: [String], arguments: [String] = [], environment: [String: String] = [:],
        startTimeout: TimeInterval = 20, user: UInt32? = nil, standardError: FileHandle? = nil,
        launcher: [String] = [], logLevel: String? = "debug"
    ) throws {
        directory = try TemporaryDirectory(prefix: "l10nd-daemon")
        socketPath = directory.path + "/l10nd.sock"
        logPath = directory.path + "/l10nd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        let daemonArguments =
            resources.flatMap { ["--resources", $0] } + ["--socket", socketPath]
            + (logLevel.map { ["--log-level", $0] } ?? []) + arguments
        if let user {
            guard chown(directory.path, user, user) == 0 else {
                throw JSONLineClient.Failure(description: "chown \(directory.path) to \(user): errno \(errno)")
            }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", PackagePaths.executable("l10nd")]
                + daemonArguments
        } else if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [PackagePaths.executable("l10nd")] + daemonArguments
        } else {
            process.executableURL = URL(fileURLWithPath: PackagePaths.executable("l10nd"))
            process.arguments = daemonArguments
        }
        var base = ["PATH": "/usr/bin:/bin"]
        base.merge(environment) { _, new in new }
        process.environment = SanitizerEnvironment.adding(to: base)
        process.standardError = try standardError ?? FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(startTimeout)
        while Date() < deadline {
            if !process.isRunning {
                throw JSONLineClient.Failure(
                    description: "l10nd exited with \(process.terminationStatus) during start-up: \(log)")
            }
            // Answered, not merely connected: the socket listens before the first load ends.
            if let client = try? JSONLineClient(path: socketPath, timeout: 5),
                (try? client.request(["op": "hello"]))?["ok"] as? Bool == true
            {
                return
            }
            usleep(20_000)
        }
        stop()
        throw JSONLineClient.Failure(description: "l10nd did not listen within \(startTimeout) s: \(log)")
    }

    deinit { stop() }

    /// What the daemon logged so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// A new connection to the daemon.
    public func connect(timeout: TimeInterval = 10) throws -> JSONLineClient {
        try JSONLineClient(path: socketPath, timeout: timeout)
    }

    /// One request on a fresh connection.
    public func request(_ request: [String: Any]) throws -> [String: Any] {
        try connect().request(request)
    }

    /// The daemon's resident memory in KiB, from `/proc`.
    public var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// The CPU time (user and system) the daemon has used, in seconds, from `/proc`.
    public var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The number of open file descriptors, from `/proc`.
    ///
    /// Under `scripts/sanitize` the pipes are left out: a sanitizer that symbolizes a stack
    /// (to match a suppression, say) talks to its `llvm-symbolizer` through two pipes it
    /// keeps. l10nd's only pipe, its socket loop's wake-up pipe, is open from start-up to
    /// exit, so leaving it out of both counts changes no comparison.
    public var openDescriptors: Int? {
        guard SanitizerEnvironment.isSanitizedRun else {
            return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd"))?
                .count
        }
        let targets = descriptorTargets
        return targets.isEmpty ? nil : targets.filter { !$0.contains("→ pipe:") }.count
    }

    /// How many of the open descriptors are the daemon's segment slabs (`/memfd:l10nd-slab-…`):
    /// they come and go with its segments (at most 16 for a set, docs/FORMAT.md), not with
    /// its clients.
    public var slabDescriptors: Int {
        descriptorTargets.filter { $0.contains("/memfd:l10nd-slab-") }.count
    }

    /// What each open descriptor refers to (`3 → socket:[1234]`), for a failure message.
    public var descriptorTargets: [String] {
        let directory = "/proc/\(process.processIdentifier)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted { Int($0) ?? 0 < Int($1) ?? 0 }.map { name in
            "\(name) → \((try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? "?")"
        }
    }

    /// Sends `signal` to the daemon.
    public func send(signal number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Sends SIGSTOP and waits (at most `timeout` seconds) until `/proc` shows the daemon
    /// stopped: on a loaded machine the stop can take effect after `kill` returns.
    @discardableResult
    public func suspend(timeout: TimeInterval = 5) -> Bool {
        send(signal: SIGSTOP)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"),
                stat[stat.index(after: close)...].split(separator: " ").first == "T"
            {
                return true
            }
            usleep(1_000)
        }
        return false
    }

    /// SIGTERM, wait up to `timeout` seconds, then SIGKILL. Returns the exit status.
    @discardableResult
    public func stop(timeout: TimeInterval = 10) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -9
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
