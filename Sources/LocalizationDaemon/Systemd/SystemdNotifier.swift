package import Dispatch
import Foundation
import LocalizationSockets
import Synchronization

#if canImport(Glibc)
    import Glibc
    import LocalizationSockets
#endif

/// Tells systemd how the daemon is doing, with the `sd_notify` datagram protocol, no libsystemd.
///
/// Each message is one datagram of `KEY=value` lines sent to the socket named by
/// `$NOTIFY_SOCKET` (a path, or an abstract name when it starts with `@`). With no
/// `NOTIFY_SOCKET` — run by hand, or under a unit that is not `Type=notify` — every call is a
/// no-op, so the daemon calls it unconditionally. Debian 12's systemd 252 knows `READY`,
/// `RELOADING`, `STATUS`, `STOPPING` and `WATCHDOG`; `MONOTONIC_USEC` rides along with
/// `RELOADING=1` for newer systemd's `Type=notify-reload` and is ignored by older ones.
///
/// ```swift
/// let systemd = SystemdNotifier()
/// systemd.startWatchdog()                       // if WATCHDOG_USEC is set
/// try systemd.ready(status: "serving 56 languages")
/// ```
package final class SystemdNotifier: Sendable {
    /// A notification that could not be sent.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, with the socket and the system's reason.
        package var message: String
        /// Creates a failure.
        package init(message: String) { self.message = message }
        /// The message.
        package var description: String { message }
    }

    /// `$NOTIFY_SOCKET` as given, when notifications are enabled.
    package let socketAddress: String?
    /// How often systemd expects `WATCHDOG=1` (`$WATCHDOG_USEC`), when the watchdog is on for this process.
    package let watchdogInterval: Duration?
    /// Why notifications are off although `NOTIFY_SOCKET` is set (an unusable address), if so.
    package let problem: String?

    private let address: UnixSocketAddress?
    private let socket: FileDescriptor?
    private let watchdogTimer = Mutex<(any DispatchSourceTimer)?>(nil)

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    ///
    /// `WATCHDOG_PID`, when present, must be `processID`: the variables are inherited by
    /// children, which must not ping on the daemon's behalf.
    ///
    /// - Parameters:
    ///   - environment: The variables to read; the process environment when nil.
    ///   - processID: This process's id; `getpid()` when nil.
    package init(environment: [String: String]? = nil, processID: Int32? = nil) {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let processID = processID ?? getpid()
        let raw = environment["NOTIFY_SOCKET"] ?? ""
        var problem: String?
        var address: UnixSocketAddress?
        var socket: FileDescriptor?
        if !raw.isEmpty {
            if let parsed = UnixSocketAddress(raw) {
                let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                if descriptor >= 0 {
                    socket = FileDescriptor(adopting: descriptor)
                    address = parsed
                } else {
                    problem = "cannot create a socket for NOTIFY_SOCKET=\(raw): \(String(cString: strerror(errno)))"
                }
            } else {
                problem =
                    "NOTIFY_SOCKET=\(raw) is not an absolute path or @abstract name that fits a Unix socket address"
            }
        }
        self.address = address
        self.socket = socket
        self.socketAddress = address?.text
        self.problem = problem

        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
        if address != nil, pidMatches, let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0 {
            watchdogInterval = .microseconds(micros)
        } else {
            watchdogInterval = nil
        }
    }

    deinit {
        watchdogTimer.withLock { $0?.cancel() }
    }

    /// Whether messages go anywhere.
    package var isEnabled: Bool { address != nil }

    /// `READY=1` (with a `STATUS=` line if given): startup finished, or a reload finished.
    package func ready(status: String? = nil) throws(Failure) {
        try send(["READY=1"] + (status.map { ["STATUS=" + Self.oneLine($0)] } ?? []))
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=`: a reload began; follow it with `ready()`.
    package func reloading() throws(Failure) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
        try send(["RELOADING=1", "MONOTONIC_USEC=\(micros)"])
    }

    /// `STATUS=…`: a one-line summary shown by `systemctl status`; newlines become spaces.
    package func status(_ text: String) throws(Failure) {
        try send(["STATUS=" + Self.oneLine(text)])
    }

    /// `STOPPING=1`: shutdown began.
    package func stopping() throws(Failure) {
        try send(["STOPPING=1"])
    }

    /// `WATCHDOG=1`: still alive.
    package func watchdog() throws(Failure) {
        try send(["WATCHDOG=1"])
    }

    /// Sends `KEY=value` assignments as one datagram; does nothing when notifications are off.
    package func send(_ assignments: [String]) throws(Failure) {
        guard let address, !assignments.isEmpty else { return }
        let descriptor: Int32
        switch socket {
        case .some(let socket): descriptor = socket.rawValue
        case .none: return
        }
        let message = Array((assignments.joined(separator: "\n") + "\n").utf8)
        let sent = address.withSockaddr { pointer, length in
            message.withUnsafeBytes { bytes in
                // Never blocks: a notify socket nobody reads must not stall a reload or a stop.
                sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), pointer, length)
            }
        }
        if sent < 0 {
            throw Failure(message: "cannot notify systemd at \(address): \(String(cString: strerror(errno)))")
        }
    }

    /// Sends `WATCHDOG=1` every half `watchdogInterval` on `queue`; returns false when the watchdog is off.
    ///
    /// A failed ping is not fatal: systemd restarts the service if pings stop arriving, which
    /// is the point. Calling it again restarts the timer.
    @discardableResult
    package func startWatchdog(queue: DispatchQueue = DispatchQueue(label: "l10nd.systemd-watchdog")) -> Bool {
        guard let watchdogInterval else { return false }
        let half = max(watchdogInterval / 2, .microseconds(10))
        // Created and swapped under the lock: timers are not Sendable, and cancel() never blocks.
        watchdogTimer.withLock { current in
            current?.cancel()
            let timer = DispatchSource.unscheduledTimer(queue: queue) { [weak self] in try? self?.watchdog() }
            timer.schedule(
                deadline: .now(), repeating: DispatchTimeInterval(half), leeway: DispatchTimeInterval(half / 10))
            current = timer
        }
        return true
    }

    /// Stops the watchdog pings.
    package func stopWatchdog() {
        watchdogTimer.withLock { current in
            current?.cancel()
            current = nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
