import LocalizationCore
import LocalizationWire
import Testing

@testable import Localization

/// How the client asks the daemon to select plural forms: the arguments' counts, cut to
/// the protocol's limit, and what an older daemon is sent instead.
@Suite struct DaemonLookupOperationTests {
    @Test func argumentsGiveOneCountEachAndNilForText() {
        let counts = LocalizedFormatter.pluralCounts(["a", 3, 1.5, Int64(-2), UInt(7)])
        #expect(
            counts == .counts([nil, PluralOperands(3), PluralOperands(1.5), PluralOperands(-2), PluralOperands(7)]))
        #expect(LocalizedFormatter.pluralCounts(["a", "b"]) == .none)
        #expect(LocalizedFormatter.pluralCounts([]) == .none)
    }

    @Test func countsAreSentToACurrentDaemon() {
        let counts: [PluralOperands?] = [nil, PluralOperands(3), PluralOperands(1)]
        let operation = DaemonLookups.lookupOperation(
            "k", languages: ["fr"], table: "Localizable", plural: .counts(counts),
            daemonMinorVersion: WireProtocolVersion.minor)
        #expect(operation == .lookup(key: "k", languages: ["fr"], table: "Localizable", plural: .counts(counts)))
    }

    @Test func longCountsAreCutToTheProtocolsLimit() {
        let counts = (1...100).map { PluralOperands($0) }
        let operation = DaemonLookups.lookupOperation(
            "k", languages: [], table: "Localizable", plural: .counts(counts), daemonMinorVersion: 3)
        guard case .lookup(_, _, _, .counts(let sent), _) = operation else {
            Issue.record("no counts in \(operation)")
            return
        }
        #expect(sent == Array(counts.prefix(WireOperation.maximumCounts)))
    }

    /// A 1.2 daemon refuses `counts`; it gets the first number as every variable's count.
    @Test func anOlderDaemonIsSentTheFirstNumberAsTheCount() {
        let operation = DaemonLookups.lookupOperation(
            "k", languages: ["fr"], table: "Localizable", plural: .counts([nil, PluralOperands(3), PluralOperands(1)]),
            daemonMinorVersion: 2)
        #expect(
            operation == .lookup(key: "k", languages: ["fr"], table: "Localizable", plural: .count(PluralOperands(3))))
        let single = DaemonLookups.lookupOperation(
            "k", languages: [], table: "T", plural: .count(PluralOperands("1.5")!), daemonMinorVersion: 2)
        #expect(single == .lookup(key: "k", languages: [], table: "T", plural: .count(PluralOperands("1.5")!)))
    }
}
