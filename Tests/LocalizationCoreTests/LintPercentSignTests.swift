import LocalizationCore
import TestSupport
import Testing

/// `percent-sign` (issue 23 finding 12): a lone `%` in a translation of a format string,
/// what Weblate's and `pofilter`'s printf checks flag and `placeholder-mismatch` passes over
/// as prose.
@Suite struct LintPercentSignTests {
    func lint(_ root: TemporaryDirectory) -> [LintFinding] {
        ResourceLinter.lint(paths: [root.path], options: LintOptions()).filter { $0.rule == .percentSign }
    }

    @Test func aBrokenPercentEscapeIsReportedAtItsLine() throws {
        let root = try TemporaryDirectory()
        try root.write(
            [
                #""done" = "%d%% done";"#, #""sure" = "100%% sure";"#, #""files" = "%d files";"#,
                #""fine" = "%d%% fine";"#, #""prose" = "50% off";"#, #""end" = "%d%%";"#,
                #""same" = "%d files, 50% done";"#,
            ].joined(separator: "\n") + "\n", to: "en.lproj/Localizable.strings")
        try root.write(
            [
                #""done" = "%d% erledigt";"#, #""sure" = "100% sicher";"#, #""files" = "%d Dateien zu 50% fertig";"#,
                #""fine" = "%d %% gut";"#, #""prose" = "50% Rabatt";"#, #""end" = "%d%";"#,
                #""same" = "%d Dateien, 50% fertig";"#,
            ].joined(separator: "\n") + "\n", to: "de.lproj/Localizable.strings")
        let findings = lint(root)
        // done, sure, files and end; not the escaped one, not a text that is no format, not
        // a lone '%' the development language has too.
        #expect(findings.map(\.location.line) == [1, 2, 3, 6], "\(findings)")
        #expect(findings.allSatisfy { $0.severity == .error })
        #expect(findings[0].message.contains("a lone '%' where the development language writes '%%'"), "\(findings[0])")
        #expect(findings[2].message.contains("a lone '%' in a format string"), "\(findings[2])")
    }

    @Test func pluralFormsAreCheckedToo() throws {
        let root = try TemporaryDirectory()
        try root.write(
            LintRulesTests.pluralPlist([("one", "%d file, 1%% done"), ("other", "%d files, 5%% done")]),
            to: "en.lproj/Localizable.stringsdict")
        try root.write(
            LintRulesTests.pluralPlist([("one", "%d Datei, 1% fertig"), ("other", "%d Dateien, 5%% fertig")]),
            to: "de.lproj/Localizable.stringsdict")
        let findings = lint(root)
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.message.contains("form one") == true, "\(findings)")
    }
}
