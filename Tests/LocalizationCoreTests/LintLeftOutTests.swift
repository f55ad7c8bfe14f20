import LocalizationCore
import TestSupport
import Testing

/// What lookups leave out is never silent in lint (issue 25): a `.strings` value that is no
/// string, a comment never closed that takes the rest of a file, and a folder of the same
/// language as a sibling served in its place.
@Suite struct LintLeftOutTests {
    @Test func aNonStringValueIsReportedAtItsKey() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"list\" = \"L\";\n", to: "en.lproj/Localizable.strings")
        let de = try root.write(
            "\"a\" = \"Ä\";\n  \"list\" = (\"x\", \"y\");\n", to: "de.lproj/Localizable.strings")
        let findings = ResourceLinter.lint(paths: [root.path]).filter { $0.location.file == de }
        let finding = try #require(findings.first { $0.rule == .nonStringValue })
        #expect(finding.location == SourceLocation(file: de, line: 2, column: 3))
        #expect(finding.severity == .warning)
        #expect(finding.message.hasPrefix("the value of \"list\" is an array, not a string"))
        // The key is not served, so it is untranslated too, as coverage counts it.
        #expect(findings.contains { $0.rule == .untranslated && $0.message.contains("\"list\"") })
    }

    @Test func aCommentNeverClosedIsAnIgnoredRest() throws {
        let root = try TemporaryDirectory()
        let en = try root.write("\"a\" = \"A\";\n/* to do\n\"b\" = \"B\";\n", to: "en.lproj/Localizable.strings")
        let findings = ResourceLinter.lint(paths: [root.path])
        let finding = try #require(findings.first { $0.rule == .ignoredRest })
        #expect(finding.location == SourceLocation(file: en, line: 2, column: 1))
        #expect(finding.message.hasPrefix("the comment that starts here is never closed"))
        #expect(!findings.contains { $0.rule == .file })
    }

    /// The folder named for the language's own identifier is served (docs/LOOKUP.md).
    @Test(arguments: [("en_GB", "en-GB"), ("English", "en")])
    func aShadowedFolderIsNamedWithTheOneServed(ignored: String, served: String) throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"a\" = \"served\";\n", to: "\(served).lproj/Localizable.strings")
        let path = try root.write("\"a\" = \"ignored\";\n", to: "\(ignored).lproj/Localizable.strings")
        // A table only the other folder has is served from it: nothing to say about it.
        try root.write("\"m\" = \"M\";\n", to: "\(ignored).lproj/Menu.strings")
        let findings = ResourceLinter.lint(paths: [root.path]).filter { $0.rule == .shadowedFolder }
        #expect(findings.count == 1, "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding.location == SourceLocation(file: path, line: 1, column: 1))
        #expect(finding.severity == .warning)
        #expect(finding.message.hasPrefix("\(ignored).lproj is not served for the Localizable table: \(served).lproj"))
        // It is what lookups do: the served folder's value.
        let set = ResourceSet.load(roots: [root.path])
        let servedTag = try LanguageTag(served)
        #expect(set.lookup("a", languages: [servedTag]).value == "served")
    }

    /// Folders of one language in different directories (an app and its extension) are
    /// both served: no finding.
    @Test func foldersInDifferentDirectoriesAreNotShadowed() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n", to: "App/en_GB.lproj/Localizable.strings")
        try root.write("\"a\" = \"A\";\n", to: "Widget/en-GB.lproj/Localizable.strings")
        #expect(!ResourceLinter.lint(paths: [root.path]).contains { $0.rule == .shadowedFolder })
    }
}
