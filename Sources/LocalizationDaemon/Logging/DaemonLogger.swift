import Foundation
import LocalizationCore
import Synchronization

/// The daemon's log: one line per message on stderr, in the form journald understands.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with its syslog priority, `<4>`, so
/// `journalctl -p warning` filters it; elsewhere lines read `l10nd: warning: …` for a person.
/// Messages above the configured level are dropped before they are formatted.
///
/// Logging never stops the daemon: a line stderr refuses (its reader gone, its disk full) is
/// dropped and counted in ``droppedLines``, which `status` shows as `log.lines_dropped`.
package final class DaemonLogger: Sendable {
    /// The most verbose level written; a configuration reload may change it.
    package var level: LogLevel {
        get { LogLevel(rawValue: currentLevel.load(ordering: .relaxed)) ?? .info }
        set { currentLevel.store(newValue.rawValue, ordering: .relaxed) }
    }
    private let currentLevel: Atomic<Int>
    private let journal: Bool
    private let writeLine: @Sendable (String) -> Bool
    /// Held across each line's write, on purpose: it guards no data, only the output, so
    /// that lines from several threads never interleave (a sink may write a line in parts).
    private let lock = Mutex(())
    private let dropped = Atomic<Int>(0)

    /// A logger writing to stderr, in journald form when the process has `JOURNAL_STREAM`.
    package convenience init(level: LogLevel) {
        self.init(
            level: level, journal: ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil,
            writeLine: { StandardErrorStream.write($0) })
    }

    /// A logger writing each finished line (with its newline) to `sink`, which cannot fail.
    package convenience init(level: LogLevel, journal: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.init(level: level, journal: journal) { line in
            sink(line)
            return true
        }
    }

    /// A logger writing each finished line (with its newline) with `writeLine`, which
    /// returns false when the line could not be written: it is then dropped and counted.
    package init(level: LogLevel, journal: Bool, writeLine: @escaping @Sendable (String) -> Bool) {
        currentLevel = Atomic(level.rawValue)
        self.journal = journal
        self.writeLine = writeLine
    }

    /// Lines dropped because the output refused them.
    package var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Writes `message` at `messageLevel`, if the configured level lets it through.
    package func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        // One line per message, escaped: a newline inside (a file's name) would forge a
        // second journal entry, an escape sequence would reach the operator's terminal.
        let text = DisplayText.escaped(message())
        let line = journal ? "<\(messageLevel.rawValue)>\(text)\n" : "l10nd: \(messageLevel.name): \(text)\n"
        let written = lock.withLock { _ in writeLine(line) }
        if !written { dropped.add(1, ordering: .relaxed) }
    }

    /// Logs at `error`.
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// Logs at `warning`.
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at `notice`.
    package func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at `info`.
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at `debug`.
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
