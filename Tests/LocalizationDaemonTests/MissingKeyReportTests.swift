import LocalizationDaemon
import Testing

@Suite struct MissingKeyReportTests {
    @Test func countsPerLanguageTableAndKey() {
        let report = MissingKeyReport()
        report.record(language: "ja", table: "Localizable", key: "a")
        report.record(language: "ja", table: "Localizable", key: "a")
        report.record(language: "de", table: "Localizable", key: "a")
        #expect(report.entries.map(\.count) == [1, 2])
        #expect(report.entries.map(\.language) == ["de", "ja"])
    }

    /// A key a fallback answered is kept with the language that answered it (the latest).
    @Test func keepsWhichLanguageAnsweredInstead() {
        let report = MissingKeyReport()
        report.record(language: "ja", table: "Localizable", key: "a", servedBy: "Base")
        report.record(language: "ja", table: "Localizable", key: "a", servedBy: "en")
        report.record(language: "ja", table: "Localizable", key: "b")
        #expect(report.entries.map(\.servedBy) == ["en", nil])
        #expect(report.entries.map(\.count) == [2, 1])
    }

    @Test func staysBoundedUnderAFlood() {
        let report = MissingKeyReport(capacity: 100)
        for index in 0..<1_000 {
            report.record(language: "ja", table: "T", key: "key \(index)")
        }
        report.record(language: "ja", table: "T", key: "key 5")
        #expect(report.entries.count == 100)
        #expect(report.droppedEntries == 900)
        #expect(report.entries.first { $0.key == "key 5" }?.count == 2)
    }

    @Test func longKeysAreCut() {
        let report = MissingKeyReport()
        report.record(language: "ja", table: "T", key: String(repeating: "x", count: 10_000))
        #expect(report.entries.map(\.key.count) == [MissingKeyReport.maximumKeyLength])
    }

    @Test func resetForgets() {
        let report = MissingKeyReport()
        report.record(language: "ja", table: "T", key: "a")
        report.reset()
        #expect(report.entries.isEmpty)
    }
}
