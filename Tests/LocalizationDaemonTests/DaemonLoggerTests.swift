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
        #expect(lines.all == ["l10nd: error: two lines\n"])
    }

    @Test(arguments: LogLevel.allCases)
    func levelNamesRoundTrip(level: LogLevel) {
        #expect(LogLevel(name: level.name) == level)
    }
}
