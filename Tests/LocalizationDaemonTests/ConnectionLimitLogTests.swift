import Testing

@testable import LocalizationDaemon

/// The log's account of refused clients: one line as a burst starts, one as it ends.
@Suite struct ConnectionLimitLogTests {
    @Test func oneLineWhenRefusingStartsAndOneWhenItStops() {
        var log = ConnectionLimitLog(limit: 8)
        #expect(log.check(refusedTotal: 0) == nil)
        #expect(log.check(refusedTotal: 3)?.level == .warning)
        #expect(log.check(refusedTotal: 40) == nil)
        let end = log.check(refusedTotal: 40)
        #expect(end?.level == .notice)
        #expect(end?.message == "below the connection limit again: 40 clients were refused (max_connections = 8)")
        #expect(log.check(refusedTotal: 40) == nil)
        #expect(log.check(refusedTotal: 41)?.message.hasPrefix("at the connection limit (max_connections = 8)") == true)
        #expect(log.check(refusedTotal: 41)?.message.contains("1 client was refused") == true)
    }
}
