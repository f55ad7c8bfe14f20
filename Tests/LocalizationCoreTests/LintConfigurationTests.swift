import Foundation
import LocalizationCore
import TestSupport
import Testing

/// `.l10nd-lint`, a project's lint settings (issue 23, item 6): the example in
/// docs/TRANSLATORS.md, where lint finds the file, and lines it refuses.
@Suite struct LintConfigurationTests {
    /// The block after `<!-- l10nd-lint example -->` in docs/TRANSLATORS.md.
    func documentedExample() throws -> String {
        let page = try String(contentsOfFile: PackagePaths.root + "/docs/TRANSLATORS.md", encoding: .utf8)
        let marker = try #require(page.range(of: "<!-- l10nd-lint example -->\n```text\n"))
        let end = try #require(page[marker.upperBound...].range(of: "```"))
        return String(page[marker.upperBound..<end.lowerBound])
    }

    @Test func theDocumentedExampleSetsWhatItSays() throws {
        var options = LintOptions()
        try LintConfiguration.apply(try documentedExample(), file: ".l10nd-lint", to: &options)
        #expect(options.severity(of: .unchangedFromSource) == nil)
        #expect(options.severity(of: .doubleSpace) == .error)
        #expect(options.severity(of: .outdatedTranslation) == .note)
        #expect(options.severity(of: .untranslated) == .warning)
        #expect(options.placeholderStyles == [.printf, .braces])
    }

    @Test func theNearestFileAtOrAboveTheFirstPathIsFound() throws {
        let root = try TemporaryDirectory()
        let file = try root.write("double-space = off\n", to: ".l10nd-lint")
        let strings = try root.write("\"a\" = \"b\";\n", to: "App/Resources/de.lproj/Localizable.strings")
        #expect(LintConfiguration.find(from: root.path + "/App/Resources") == file)
        #expect(LintConfiguration.find(from: strings) == file)
        let nearer = try root.write("", to: "App/.l10nd-lint")
        #expect(LintConfiguration.find(from: root.path + "/App/Resources") == nearer)
    }

    @Test(arguments: [
        ("double-space = loud", ".l10nd-lint:2: double-space= takes error, warning, note or off, not 'loud'"),
        ("loud-rule = error", ".l10nd-lint:2: takes RULE=error|warning|note|off"),
        ("double-space error", ".l10nd-lint:2: expected NAME = VALUE"),
        ("placeholders = curly", ".l10nd-lint:2: placeholders takes a comma-separated list"),
    ])
    func aLineThatIsNoSettingIsAnErrorAtItsLine(line: String, message: String) throws {
        var options = LintOptions()
        #expect {
            try LintConfiguration.apply("# settings\n" + line + "\n", file: ".l10nd-lint", to: &options)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
