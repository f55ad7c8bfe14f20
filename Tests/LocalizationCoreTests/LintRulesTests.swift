import LocalizationCore
import TestSupport
import Testing

/// The rules a translator relies on (issue 15, item 1), each on real files in a temp directory.
@Suite struct LintRulesTests {
    func lint(_ root: TemporaryDirectory, _ options: LintOptions = LintOptions()) -> [LintFinding] {
        ResourceLinter.lint(paths: [root.path], options: options)
    }

    /// A `.stringsdict` with one entry, `%d files`, whose variable `files` has `forms`; its
    /// `<key>files</key>` is on line 8, column 9.
    static func pluralPlist(_ forms: [(String, String)]) -> String {
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
        \(forms.map { "            <key>\($0.0)</key>\n            <string>\($0.1)</string>" }.joined(separator: "\n"))
                </dict>
            </dict>
        </dict>
        </plist>
        """
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
        try root.write(
            Self.pluralPlist([("one", "%d file"), ("other", "%d files")]), to: "en.lproj/Localizable.stringsdict")
        let ru = try root.write(
            Self.pluralPlist([("one", "%d файл"), ("other", "%d файла")]), to: "ru.lproj/Localizable.stringsdict")
        let findings = lint(root)
        let plural = try #require(findings.first { $0.rule == .pluralForms }, "\(findings)")
        #expect(plural.location == SourceLocation(file: ru, line: 8, column: 9))
        #expect(plural.message.contains("no few, many form"))
        #expect(findings.count == 1)
    }

    /// Every plural form is compared, not only `other`: a `%@` or `%.2f` in Russian `few` or
    /// `many` where English has `%d` is a mismatch; a `one` without the number is allowed.
    @Test func everyPluralFormsPlaceholdersAreCompared() throws {
        let root = try TemporaryDirectory()
        try root.write(
            Self.pluralPlist([("one", "a file"), ("other", "%d files")]), to: "en.lproj/Localizable.stringsdict")
        let ru = try root.write(
            Self.pluralPlist([("one", "%d файл"), ("few", "%@ файла"), ("many", "%.2f файлов"), ("other", "%d файла")]),
            to: "ru.lproj/Localizable.stringsdict")
        try root.write(
            Self.pluralPlist([("one", "un fichier"), ("many", "%d"), ("other", "%d fichiers")]),
            to: "fr.lproj/Localizable.stringsdict")
        let findings = lint(root).filter { $0.rule == .placeholderMismatch }
        #expect(findings.count == 2, "\(findings)")
        #expect(findings.allSatisfy { $0.location == SourceLocation(file: ru, line: 8, column: 9) })
        #expect(
            findings.map(\.message).sorted().map { $0.contains("form few") || $0.contains("form many") } == [
                true, true,
            ])
        #expect(findings.contains { $0.message.contains("form few") && $0.message.contains("found [1: object]") })
    }

    /// A String Catalog's plural forms too.
    @Test func everyCatalogPluralFormIsCompared() throws {
        let root = try TemporaryDirectory()
        let forms = { (pairs: [(String, String)]) in
            pairs.map { #""\#($0.0)" : { "stringUnit" : { "state" : "translated", "value" : "\#($0.1)" } }"# }
                .joined(separator: ", ")
        }
        try root.write(
            """
            { "sourceLanguage" : "en", "version" : "1.0", "strings" : { "%lld files" : { "localizations" : {
              "en" : { "variations" : { "plural" : { \(forms([("one", "a file"), ("other", "%lld files")])) } } },
              "ru" : { "variations" : { "plural" : { \(forms([("one", "%lld файл"), ("few", "%lld файла"), ("many", "%@ файлов"), ("other", "%lld файла")])) } } }
            } } } }
            """, to: "Localizable.xcstrings")
        let findings = lint(root).filter { $0.rule == .placeholderMismatch }
        #expect(findings.count == 1 && findings[0].message.contains("form many"), "\(findings)")
    }

    /// `%*d`, `%.*d`, `%*@` take their width from an argument: formatting refuses them.
    @Test func starWidthsAreReported() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"a\" = \"%d items\";\n\"b\" = \"%.2f\";\n\"c\" = \"%@\";\n", to: "en.lproj/Localizable.strings")
        try root.write(
            "\"a\" = \"%*d Dinge\";\n\"b\" = \"%.*d\";\n\"c\" = \"%*@\";\n", to: "de.lproj/Localizable.strings")
        let stars = lint(root).filter { $0.rule == .formatWidth }
        #expect(stars.map(\.location.line) == [1, 2, 3], "\(lint(root))")
        #expect(stars.allSatisfy { $0.message.contains("'*'") && $0.severity == .warning })
    }

    /// A form for a category the language does not have (Japanese `one`, Russian `two`) is a
    /// `plural-forms` warning; Apple's `zero` is allowed in any language.
    @Test func formsALanguageNeverUsesAreReported() throws {
        let root = try TemporaryDirectory()
        try root.write(
            Self.pluralPlist([("one", "%d file"), ("other", "%d files")]), to: "en.lproj/Localizable.stringsdict")
        let ja = try root.write(
            Self.pluralPlist([("zero", "なし"), ("one", "%d"), ("few", "%d"), ("other", "%d")]),
            to: "ja.lproj/Localizable.stringsdict")
        let ru = try root.write(
            Self.pluralPlist([("one", "%d"), ("two", "%d"), ("few", "%d"), ("many", "%d"), ("other", "%d")]),
            to: "ru.lproj/Localizable.stringsdict")
        let findings = lint(root).filter { $0.rule == .pluralForms }
        #expect(findings.count == 2, "\(findings)")
        #expect(
            findings.contains { $0.location.file == ja && $0.message.contains("has a few, one form ja never uses") })
        #expect(findings.contains { $0.location.file == ru && $0.message.contains("has a two form ru never uses") })
    }

    /// A `.stringsdict` entry written twice: `duplicate-key` at the second, the first related.
    @Test func aStringsDictKeyWrittenTwiceIsReported() throws {
        let root = try TemporaryDirectory()
        let entry = { (key: String) in
            "    <key>\(key)</key>\n    <dict>\n        <key>NSStringLocalizedFormatKey</key>\n        <string>x</string>\n    </dict>\n"
        }
        let path = try root.write(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- <key>a</key> -->\n<plist version=\"1.0\">\n<dict>\n"
                + entry("a &amp; b") + entry("c") + entry("a &amp; b") + "</dict>\n</plist>\n",
            to: "en.lproj/Localizable.stringsdict")
        let duplicates = lint(root).filter { $0.rule == .duplicateKey }
        #expect(duplicates.count == 1, "\(lint(root))")
        #expect(duplicates.first?.location == SourceLocation(file: path, line: 15, column: 5))
        #expect(duplicates.first?.related?.line == 5)
        #expect(duplicates.first?.message.contains("\"a & b\"") == true)
    }

    /// Keys are quoted as `.strings` literals: a quote stays a quote, an escape sequence
    /// never reaches the terminal.
    @Test func keysInMessagesAreQuotedAsStringsLiterals() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"\\U001B]0;pwned\\U0007\" = \"x\";\n\"q\\\"uo\" = \"y\";\n\"\\U009B31m\" = \"z\";\n",
            to: "en.lproj/Localizable.strings")
        try root.write("\"other\" = \"x\";\n", to: "de.lproj/Localizable.strings")
        let text = LintReport(findings: lint(root), options: LintOptions()).text
        #expect(text.contains(#"missing key "\U001B]0;pwned\U0007""#), "\(text)")
        #expect(text.contains(#"missing key "q\"uo""#))
        #expect(text.contains(#"missing key "\U009B31m""#))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
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
                == ["empty-value@9:9", "outdated-translation@16:9", "untranslated@21:5"], "\(findings)")
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

    /// `%%` is a literal percent: the `% p` after it is text, as the formatter reads it.
    @Test func aDoublePercentBeforeAWordIsText() throws {
        #expect(PlaceholderStyles.printf.mismatch("%d pct", "%d %% pct") == nil)
        #expect(PlaceholderStyles.printf.mismatch("%d pct", "%d %%%@") != nil)
        let root = try TemporaryDirectory()
        try root.write("\"h1\" = \"%d pct\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"h1\" = \"%d %% pct\";\n", to: "de.lproj/Localizable.strings")
        #expect(lint(root).isEmpty, "\(lint(root))")
        #expect(FormatSpecifier.parse("%d %% pct").map(\.text) == ["%d"])
    }
}
