import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// `L10N_MODE` set to no mode of this library is said once per process and value, on the
/// localizer's log (standard error by default), as the Python and C clients say it; the
/// mode chosen is the one an unset `L10N_MODE` gives.
@Suite struct ModeWarningTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var handler: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    }

    /// A value no other test uses: the warning is once per process.
    static func unknownMode() -> String { "bogus-\(UUID().uuidString.prefix(8))" }

    @Test func anUnknownModeWithASocketIsWarnedOnceAndMappedModeRuns() throws {
        let directory = try TemporaryDirectory()
        let bogus = Self.unknownMode()
        let environment = ["L10N_MODE": bogus, "L10N_SOCKET": directory.path + "/absent.sock"]
        let first = Log()
        let localizer = Localizer(environment: environment, log: first.handler)
        #expect(localizer.mode == .mapped)
        let warning =
            "l10nd-client: L10N_MODE=\"\(bogus)\" is not a mode of this library (embedded, mapped, direct); using mapped mode"
        #expect(first.all.filter { $0.contains("L10N_MODE") } == [warning], "\(first.all)")
        let second = Log()
        #expect(Localizer(environment: environment, log: second.handler).mode == .mapped)
        #expect(second.all.filter { $0.contains("L10N_MODE") }.isEmpty, "said twice: \(second.all)")
    }

    @Test func anUnknownModeWithoutADaemonNamesTheModeThatRuns() {
        let bogus = Self.unknownMode()
        let log = Log()
        let localizer = Localizer(environment: ["L10N_MODE": bogus], log: log.handler)
        // Without L10N_SOCKET the clients' socket rule decides, as with L10N_MODE unset.
        let expected: LookupMode = DaemonConnection.socketIsFound(environment: [:]) ? .mapped : .embedded
        #expect(localizer.mode == expected)
        #expect(
            log.all.filter { $0.contains("L10N_MODE") } == [
                "l10nd-client: L10N_MODE=\"\(bogus)\" is not a mode of this library (embedded, mapped, direct); using \(expected.rawValue) mode"
            ])
    }

    /// The value is quoted as the Python and C clients quote it: a stray space shows, and a
    /// quote or a newline in it cannot forge the rest of the line (docs/CLIENT.md).
    @Test func theValueIsQuotedAndEscaped() throws {
        let tag = UUID().uuidString.prefix(8)
        for (given, shown) in [
            (" direct \(tag)", "\" direct \(tag)\""), ("di\"r\\e\nct\(tag)", #""di\"r\\e\x0Act\#(tag)""#),
        ] {
            let log = Log()
            let directory = try TemporaryDirectory()
            _ = Localizer(
                environment: ["L10N_MODE": given, "L10N_SOCKET": directory.path + "/absent.sock"], log: log.handler)
            #expect(
                log.all.filter { $0.contains("L10N_MODE") } == [
                    "l10nd-client: L10N_MODE=\(shown) is not a mode of this library (embedded, mapped, direct); using mapped mode"
                ])
        }
    }

    @Test(arguments: ["", "embedded", "direct", "mapped"])
    func aModeOrAnEmptyValueIsNotWarned(value: String) {
        let log = Log()
        _ = Localizer(
            environment: ["L10N_MODE": value, "L10N_SOCKET": "/nonexistent-l10nd/l10nd.sock"], log: log.handler)
        #expect(log.all.filter { $0.contains("L10N_MODE") }.isEmpty, "\(log.all)")
    }
}
