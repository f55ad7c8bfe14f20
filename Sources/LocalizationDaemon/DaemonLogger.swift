import Foundation
import Synchronization

/// The daemon's log: one line per message on stderr, in the form journald understands.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with its syslog priority, `<4>`, so
/// `journalctl -p warning` filters it; elsewhere lines read `l10nd: warning: …` for a person.
/// Messages above the configured level are dropped before they are formatted.
public final class DaemonLogger: Sendable {
    /// The most verbose level written.
    public let level: LogLevel
    private let journal: Bool
    private let sink: @Sendable (String) -> Void
    private let lock = Mutex(())

    /// A logger writing to stderr, in journald form when the process has `JOURNAL_STREAM`.
    public convenience init(level: LogLevel) {
        self.init(level: level, journal: ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A logger writing each finished line (with its newline) to `sink`.
    public init(level: LogLevel, journal: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.journal = journal
        self.sink = sink
    }

    /// Writes `message` at `messageLevel`, if the configured level lets it through.
    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        // One line per message: a newline inside would forge a second journal entry.
        let text = message().replacing("\n", with: " ")
        let line = journal ? "<\(messageLevel.rawValue)>\(text)\n" : "l10nd: \(messageLevel.name): \(text)\n"
        lock.withLock { _ in sink(line) }
    }

    /// Logs at `error`.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// Logs at `warning`.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at `notice`.
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at `info`.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at `debug`.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
