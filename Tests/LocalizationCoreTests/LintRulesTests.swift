import LocalizationCore
import TestSupport
import Testing

/// The rules a translator relies on (issue 15, item 1), each on real files in a temp directory.
@Suite struct LintRulesTests {
    func lint(_ root: TemporaryDirectory, _ options: LintOptions = LintOptions()) -> [LintFinding] {
        ResourceLinter.lint(paths: [root.path], options: options)
    }

    @Test func emptyValuesAndObsoleteKeysAreReportedAtTheirLines() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Save\" = \"Save\";\n\"Open\" = \"Open\";\n", to: "en.lproj/Localizable.strings")
        let de = try root.write(
            "\"Save\" = \"\";\n\n  \"Gone\" = \"Weg\";\n\"Open\" = \"Öffnen\";\n", to: "de.lproj/Localizable.strings")
        let findings = lint(root)
        #expect(findings.count == 2, "\(findings)")
        let empty = try #require(findings.first { $0.rule == .emptyValue })
        #expect(empty.location == SourceLocation(file: de, line: 1, column: 1) && empty.severity == .warning)
        #expect(empty.related?.line == 1)
        let obsolete = try #require(findings.first { $0.rule == .obsoleteKey })
        #expect(obsolete.location == SourceLocation(file: de, line: 3, column: 3))
    }

    @Test func anEmptyValueIsNotTranslatedInCoverage() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Save\" = \"Save\";\n\"Open\" = \"Open\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"Save\" = \"\";\n\"Open\" = \"Öffnen\";\n", to: "de.lproj/Localizable.strings")
        let coverage = TranslationCoverage(catalog: ResourceSet.load(roots: [root.path]).catalog)
        let german = try #require(coverage.languages.first { $0.language == "de" })
        #expect(german.translated == 1 && german.total == 2)
    }

    @Test func russianPluralsWithoutFewAndManyAreReported() throws {
        let root = try TemporaryDirectory()
        let plist = { (one: String, other: String) in
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>%d files</key>
                <dict>
                    <key>NSStringLocalizedFormatKey</key>
                    <string>%#@files@</string>
                    <key>files</key>
                    <dict>
                        <key>NSStringFormatSpecTypeKey</key>
                        <string>NSStringPluralRuleType</string>
                        <key>NSStringFormatValueTypeKey</key>
                        <string>d</string>
                        <key>one</key>
                        <string>\(one)</string>
                        <key>other</key>
                        <string>\(other)</string>
                    </dict>
                </dict>
            </dict>
            </plist>
            """
        }
        try root.write(plist("%d file", "%d files"), to: "en.lproj/Localizable.stringsdict")
        let ru = try root.write(plist("%d файл", "%d файла"), to: "ru.lproj/Localizable.stringsdict")
        let findings = lint(root)
        let plural = try #require(findings.first { $0.rule == .pluralForms }, "\(findings)")
        #expect(plural.location == SourceLocation(file: ru, line: 8, column: 9))
        #expect(plural.message.contains("no few, many form"))
        #expect(findings.count == 1)
    }

    @Test func catalogUntranslatedEmptyMarkedAndShouldTranslateFalse() throws {
        let root = try TemporaryDirectory()
        let catalog = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Brand" : {
                  "shouldTranslate" : false
                },
                "Done" : {
                  "localizations" : {
                    "de" : {
                      "stringUnit" : { "state" : "translated", "value" : "" }
                    }
                  }
                },
                "Open" : {
                  "localizations" : {
                    "de" : {
                      "stringUnit" : { "state" : "needs_review", "value" : "Öffnen" }
                    }
                  }
                },
                "Quit" : {

                }
              },
              "version" : "1.0"
            }
            """
        let path = try root.write(catalog, to: "Localizable.xcstrings")
        let findings = lint(root)
        #expect(
            findings.map { "\($0.rule.rawValue)@\($0.location.line):\($0.location.column)" }.sorted()
                == ["empty-value@9:9", "review-state@16:9", "untranslated@21:5"], "\(findings)")
        #expect(findings.allSatisfy { $0.location.file == path })
        let coverage = TranslationCoverage(catalog: ResourceSet.load(roots: [root.path]).catalog)
        let german = try #require(coverage.languages.first { $0.language == "de" })
        // Brand is not counted; Done is empty; Open is served (needs review); Quit is missing.
        #expect(german.translated == 1 && german.total == 3 && german.needsReview == 1)
    }

    @Test func ownNumberedPlaceholdersGiveNoFalsePositives() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"a\" = \"%0 files in %1\";\n\"b\" = \"%0 items\";\n\"c\" = \"{name} left\";\n\"d\" = \"%@ said\";\n",
            to: "en.lproj/Localizable.strings")
        try root.write(
            "\"a\" = \"%1 enthält %0 Dateien\";\n\"b\" = \"%0 Elemente\";\n\"c\" = \"{name} ging\";\n\"d\" = \"%@ sagte\";\n",
            to: "de.lproj/Localizable.strings")
        try root.write(
            "\"a\" = \"%0 fichiers\";\n\"b\" = \"%0 éléments\";\n\"c\" = \"{nom} est parti\";\n\"d\" = \"%d a dit\";\n",
            to: "fr.lproj/Localizable.strings")
        let findings = lint(root)
        #expect(!findings.contains { $0.location.file?.contains("de.lproj") == true }, "\(findings)")
        let french = findings.filter { $0.rule == .placeholderMismatch }.map(\.location.line)
        #expect(french == [1, 3, 4], "\(findings)")
        // Read as printf only, the French translation's dropped %1 goes unnoticed.
        var printfOnly = LintOptions()
        printfOnly.placeholderStyles = .printf
        #expect(
            !lint(root, printfOnly).contains { $0.location.file?.contains("fr.lproj") == true && $0.location.line == 1 }
        )
    }

    @Test func severitiesAreConfigurable() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"b\" = \"%@\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"a\" = \"\";\n\"b\" = \"%d\";\n\"c\" = \"C\";\n", to: "de.lproj/Localizable.strings")
        var options = LintOptions()
        try options.setSeverity("empty-value=error")
        try options.setSeverity("obsolete-key=off")
        try options.setSeverity("placeholder-mismatch=warning")
        let findings = lint(root, options)
        #expect(findings.map(\.rule) == [.emptyValue, .placeholderMismatch])
        #expect(findings.map(\.severity) == [.error, .warning])
        #expect(throws: LintOptionError.self) { try options.setSeverity("nonsense=error") }
        #expect(throws: LintOptionError.self) { try options.setSeverity("empty-value=fatal") }
    }

    @Test func placeholderStylesAreDetected() {
        #expect(PlaceholderStyles.detected(in: ["%@ and %d", "%1$@"]) == .printf)
        #expect(PlaceholderStyles.detected(in: ["%0 files", "x"]) == [.printf, .percentNumber])
        #expect(PlaceholderStyles.detected(in: ["Hello {name}"]) == [.printf, .braces])
        #expect(PlaceholderStyles.printf.mismatch("%1$@ %2$d", "%2$d %1$@") == nil)
        #expect(PlaceholderStyles.printf.mismatch("%@ %d", "%@") != nil)
        // A percent sign in prose is no conversion, whatever letter follows (IINA's "% of screen").
        #expect(PlaceholderStyles.printf.mismatch("% of screen", "% van skerm") == nil)
        #expect(PlaceholderStyles.printf.mismatch("50 % done", "50 % fertig") == nil)
        #expect(PlaceholderStyles.printf.mismatch("% d", "%d") == nil)
    }
}
