import Glibc
import LocalizationDaemon
import Synchronization
import Testing

@Suite struct DaemonLoggerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func journalLinesCarryTheirPriority() {
        let lines = Lines()
        let logger = DaemonLogger(level: .info, journal: true, sink: lines.append)
        logger.warning("ja.lproj/Localizable.strings:3:9: missing ';'")
        logger.info("reloaded")
        logger.debug("not shown")
        #expect(lines.all == ["<4>ja.lproj/Localizable.strings:3:9: missing ';'\n", "<6>reloaded\n"])
    }

    @Test func plainLinesForAPerson() {
        let lines = Lines()
        let logger = DaemonLogger(level: .warning, journal: false, sink: lines.append)
        logger.error("two\nlines")
        logger.notice("dropped")
        #expect(lines.all == ["l10nd: error: two\\nlines\n"])
    }

    @Test func linesTheOutputRefusesAreDroppedAndCounted() {
        let lines = Lines()
        let refusing = Mutex(true)
        let logger = DaemonLogger(level: .info, journal: false) { line in
            if refusing.withLock({ $0 }) { return false }
            lines.append(line)
            return true
        }
        logger.warning("lost")
        logger.error("lost too")
        refusing.withLock { $0 = false }
        logger.notice("kept")
        #expect(logger.droppedLines == 2)
        #expect(lines.all == ["l10nd: notice: kept\n"])
    }

    /// The write behind the daemon's stderr, on a real pipe whose reader is gone: `EPIPE`,
    /// reported as a refused line rather than a trap. SIGPIPE is ignored first, as l10nd's
    /// `main` does (the test process would otherwise die of it, as the daemon once did).
    @Test func aPipeWithoutAReaderRefusesTheLineWithoutTrapping() {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        #expect(!StandardErrorStream.write("l10nd: error: nobody reads this\n", to: ends[1]))
        #expect(errno == EPIPE)
        close(ends[1])
    }

    @Test(arguments: LogLevel.allCases)
    func levelNamesRoundTrip(level: LogLevel) {
        #expect(LogLevel(name: level.name) == level)
    }
}
