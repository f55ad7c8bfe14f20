import Foundation
import LocalizationCore
import TestSupport
import Testing

/// A language just starting lacks whole files: lint's text prints one line per missing file
/// (and per catalog without the language), while the counts, JSON and SARIF keep one
/// finding per key, which coverage's count equals.
@Suite struct LintGroupedOutputTests {
    @Test func aMissingFileIsOneLineOfTextAndOneFindingPerKey() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Name\" = \"Player\";\n", to: "en.lproj/InfoPlist.strings")
        try root.write("\"A\" = \"A\";\n\"B\" = \"B\";\n\"C\" = \"C\";\n", to: "en.lproj/Main.strings")
        try root.write("\"Only\" = \"Only\";\n", to: "en.lproj/One.strings")
        try root.write("\"Name\" = \"Ludilo\";\n", to: "eo.lproj/InfoPlist.strings")
        try root.write(
            """
            { "sourceLanguage" : "en", "strings" : { "Open" : { }, "Quit" : { } } }
            """, to: "Menu.xcstrings")

        let options = LintOptions()
        let report = LintReport(findings: ResourceLinter.lint(paths: [root.path], options: options), options: options)
        #expect(report.warningCount == 6 && report.errorCount == 0, "\(report.findings)")
        let coverage = TranslationCoverage(catalog: ResourceSet.load(roots: [root.path]).catalog)
        let esperanto = try #require(coverage.languages.first { $0.language == "eo" })
        #expect(esperanto.total - esperanto.translated == report.findings.count)
        let lines = report.text.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                root.path
                    + "/Menu.xcstrings:1:42: warning: 2 keys untranslated: Menu.xcstrings has no eo localization at all [untranslated]",
                root.path
                    + "/eo.lproj/Main.strings:1:1: warning: 3 keys untranslated: there is no eo.lproj/Main.strings (en.lproj/Main.strings has them) [untranslated]",
                root.path
                    + "/eo.lproj/One.strings:1:1: warning: missing key \"Only\" (there is no eo.lproj/One.strings; en.lproj/One.strings:1 has it) [untranslated]",
            ], "\(report.text)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect((json["findings"] as? [Any])?.count == 6 && json["warnings"] as? Int == 6)
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(report.sarif().utf8)) as? [String: Any])
        let runs = try #require(sarif["runs"] as? [[String: Any]])
        #expect((runs.first?["results"] as? [Any])?.count == 6)
    }
}
