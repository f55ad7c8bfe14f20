import LocalizationCore
import TestSupport
import Testing

@Suite struct ResourceLinterTests {
    @Test func comparesWithBaseWhenTheDevelopmentLanguageIsAbsent() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"%@\";\n\"b\" = \"B\";\n", to: "Base.lproj/Main.strings")
        try root.write("\"a\" = \"%d\";\n", to: "ja.lproj/Main.strings")
        let findings = ResourceLinter.lint(paths: [root.path])
        #expect(findings.count == 2)
        #expect(findings.contains { $0.severity == .error && $0.message.contains("\"a\"") && $0.location.line == 1 })
        #expect(findings.contains { $0.severity == .warning && $0.message.contains("missing key \"b\"") })
    }

    @Test func aReferenceNotNamedIsReadButNotReported() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"a\" = \"again\";\n\"b\" = \"B\";\n", to: "en.lproj/Localizable.strings")
        let ja = try root.write("\"a\" = \"エー\";\n", to: "ja.lproj/Localizable.strings")
        let findings = ResourceLinter.lint(paths: [ja])
        #expect(findings.map(\.message) == ["missing key \"b\" (en.lproj/Localizable.strings:3 has it)"])
    }

    @Test func missingPathsAndOtherFilesAreErrors() {
        let findings = ResourceLinter.lint(paths: ["/nonexistent/x.strings", PackagePaths.root + "/Package.swift"])
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    /// A catalog key without a source unit is compared as a format only when the key is one:
    /// `cart.count` names no arguments, `%lld items` does (Xcode's key for `"\(n) items"`).
    @Test func aKeyMadeSourceEntryIsAReferenceOnlyWhenTheKeyIsAFormat() throws {
        let root = try TemporaryDirectory()
        let catalog = try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "cart.count" : { "localizations" : {
                  "de" : { "stringUnit" : { "state" : "translated", "value" : "%lld Artikel" } } } },
                "%lld items" : { "localizations" : {
                  "de" : { "stringUnit" : { "state" : "translated", "value" : "%@ Elemente" } } } }
              },
              "version" : "1.0"
            }
            """, to: "Localizable.xcstrings")
        let findings = ResourceLinter.lint(paths: [catalog])
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.message.contains("\"%lld items\" in de: format specifiers differ") == true)
    }

    /// A catalog plural without `other` is served, so lint warns rather than errs.
    @Test func aCatalogPluralWithoutOtherIsAWarning() throws {
        let root = try TemporaryDirectory()
        let catalog = try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "%lld files" : { "localizations" : {
                  "en" : { "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld file" } } } } } } }
              },
              "version" : "1.0"
            }
            """, to: "Localizable.xcstrings")
        let findings = ResourceLinter.lint(paths: [catalog])
        #expect(findings.map(\.severity) == [.warning], "\(findings)")
    }

    @Test func findingsPrintLikeACompiler() {
        let finding = LintFinding(
            location: SourceLocation(file: "a.strings", line: 3, column: 9), severity: .warning, message: "m",
            rule: .duplicateKey)
        #expect(finding.description == "a.strings:3:9: warning: m [duplicate-key]")
    }
}
