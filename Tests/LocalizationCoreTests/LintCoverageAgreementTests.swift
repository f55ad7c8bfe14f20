import LocalizationCore
import TestSupport
import Testing

/// `l10nctl lint` and `l10nctl coverage` count a missing translation alike: what coverage
/// leaves untranslated (its total minus its translated keys) is lint's `untranslated` plus
/// its `empty-value`, for missing keys, missing whole files and the development language.
@Suite struct LintCoverageAgreementTests {
    func coverage(_ root: TemporaryDirectory, _ language: String) throws -> TranslationCoverage.Language {
        let coverage = TranslationCoverage(catalog: ResourceSet.load(roots: [root.path]).catalog)
        return try #require(coverage.languages.first { $0.language == language })
    }

    /// How many keys lint reports untranslated or empty in `language`'s `.lproj`.
    func lintMissing(_ findings: [LintFinding], _ language: String) -> Int {
        findings.filter {
            [.untranslated, .emptyValue].contains($0.rule) && ($0.location.file ?? "").contains("/\(language).lproj/")
        }.count
    }

    @Test func aWholeMissingFileCountsEveryKeyInLintAsInCoverage() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Save\" = \"Save\";\n\"Open\" = \"Open\";\n", to: "en.lproj/Localizable.strings")
        let settings = try root.write(
            "\"Title\" = \"Settings\";\n\"Dark\" = \"Dark\";\n\"Light\" = \"Light\";\n", to: "en.lproj/Settings.strings"
        )
        try root.write("\"Save\" = \"\";\n", to: "de.lproj/Localizable.strings")
        try root.write("\"Save\" = \"Guardar\";\n\"Open\" = \"Abrir\";\n", to: "es.lproj/Localizable.strings")

        let findings = ResourceLinter.lint(paths: [root.path])
        let german = try coverage(root, "de")
        #expect(german.translated == 0 && german.total == 5)
        // "Open" is missing from the file, "Save" empty, the three of Settings.strings missing with it.
        #expect(lintMissing(findings, "de") == 5, "\(findings)")
        let spanish = try coverage(root, "es")
        #expect(spanish.total - spanish.translated == 3)
        #expect(lintMissing(findings, "es") == 3, "\(findings)")

        let dark = try #require(
            findings.first { $0.message.contains("\"Dark\"") && $0.location.file!.contains("/de.lproj/") })
        #expect(dark.rule == .untranslated)
        #expect(dark.location == SourceLocation(file: root.path + "/de.lproj/Settings.strings", line: 1, column: 1))
        #expect(dark.related == SourceLocation(file: settings, line: 2, column: 1))
        #expect(
            dark.message
                == "missing key \"Dark\" (there is no de.lproj/Settings.strings; en.lproj/Settings.strings:2 has it)")
    }

    @Test func aFileNamedAloneSaysNothingOfTheFilesBesideIt() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Save\" = \"Save\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"Title\" = \"Settings\";\n", to: "en.lproj/Settings.strings")
        let german = try root.write("\"Save\" = \"Sichern\";\n", to: "de.lproj/Localizable.strings")
        #expect(ResourceLinter.lint(paths: [german]).isEmpty)
        #expect(ResourceLinter.lint(paths: [root.path + "/de.lproj"]).count == 1)
    }

    @Test func baseOnlyTablesAreTheDevelopmentLanguagesOwn() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Play\" = \"Play\";\n\"Stop\" = \"Stop\";\n", to: "Base.lproj/Main.strings")
        try root.write("\"Name\" = \"Player\";\n", to: "en.lproj/InfoPlist.strings")
        try root.write("\"Name\" = \"Lecteur\";\n", to: "fr.lproj/InfoPlist.strings")
        try root.write("\"Play\" = \"Lire\";\n", to: "fr.lproj/Main.strings")

        let english = try coverage(root, "en")
        #expect(english.translated == 2 && english.total == 2 && english.fraction == 1)
        #expect(english.tables.map { "\($0.name) \($0.translated)/\($0.total)" } == ["Main 2/2"])
        let french = try coverage(root, "fr")
        #expect(french.translated == 2 && french.total == 3)
        let findings = ResourceLinter.lint(paths: [root.path])
        #expect(lintMissing(findings, "en") == 0 && lintMissing(findings, "fr") == 1, "\(findings)")
    }

    @Test func aDevelopmentLanguageWithNoFilesIsStillLeftOut() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Play\" = \"Play\";\n", to: "Base.lproj/Main.strings")
        try root.write("\"Play\" = \"Lire\";\n", to: "fr.lproj/Main.strings")
        let coverage = TranslationCoverage(catalog: ResourceSet.load(roots: [root.path]).catalog)
        #expect(coverage.reference == "Base" && coverage.languages.map(\.language) == ["fr"])
    }

    @Test func aLanguageACatalogLacksAltogetherIsUntranslatedInIt() throws {
        let root = try TemporaryDirectory()
        let catalog = try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Brand" : { "shouldTranslate" : false },
                "Open" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "Ouvrir" } } } },
                "Quit" : { }
              }
            }
            """, to: "Menu.xcstrings")
        try root.write("\"Save\" = \"Save\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"Save\" = \"Speichern\";\n", to: "de.lproj/Localizable.strings")

        let findings = ResourceLinter.lint(paths: [root.path])
        // de has no localization in the catalog at all: both of its translatable keys;
        // fr has no Localizable.strings: its one key, and "Quit" in the catalog.
        let german = try coverage(root, "de")
        #expect(german.total - german.translated == 2)
        let missingInCatalog = findings.filter {
            $0.location.file == catalog && $0.message.hasSuffix("has no de localization")
        }
        #expect(
            missingInCatalog.map(\.message) == ["\"Open\" has no de localization", "\"Quit\" has no de localization"])
        #expect(missingInCatalog.allSatisfy { $0.rule == .untranslated })
        let french = try coverage(root, "fr")
        #expect(french.total - french.translated == 2)
        let frenchFindings = findings.filter { $0.rule == .untranslated && $0.message.contains("fr") }
        #expect(frenchFindings.count == 2, "\(findings)")
        #expect(findings.count == 4, "\(findings)")
    }

    static let pluralFiles = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
        <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key><string>d</string>
        <key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict></dict>
        <key>items</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
        <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key><string>d</string>
        <key>one</key><string>%d item</string><key>other</key><string>%d items</string></dict></dict>
        </dict></plist>
        """

    /// A table's `.strings` and `.stringsdict` are one table, as lookup and coverage merge
    /// them: a key one file of the language lacks but the other has is translated.
    @Test func aMissingStringsdictLeavesOutTheKeysTheStringsFileHas() throws {
        let root = try TemporaryDirectory()
        try root.write(Self.pluralFiles, to: "en.lproj/Localizable.stringsdict")
        try root.write("\"files\" = \"%d files\";\n\"a\" = \"A\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"files\" = \"%d Dateien\";\n\"a\" = \"A\";\n", to: "de.lproj/Localizable.strings")

        let german = try coverage(root, "de")
        #expect(german.translated == 2 && german.total == 3)
        let findings = ResourceLinter.lint(paths: [root.path])
        #expect(lintMissing(findings, "de") == 1, "\(findings)")
        #expect(findings.filter { $0.rule == .untranslated }.map(\.message).allSatisfy { $0.contains("\"items\"") })
    }

    @Test func aStringsdictLackingAKeyItsStringsFileHasIsTranslated() throws {
        let root = try TemporaryDirectory()
        try root.write(Self.pluralFiles, to: "en.lproj/Localizable.stringsdict")
        try root.write("\"items\" = \"%d items\";\n", to: "en.lproj/Localizable.strings")
        let onlyFiles = Self.pluralFiles.replacing(
            /<key>items<\/key>.*<\/dict><\/dict>\n/.dotMatchesNewlines(), with: "")
        try root.write(onlyFiles, to: "de.lproj/Localizable.stringsdict")
        try root.write("\"items\" = \"%d Elemente\";\n", to: "de.lproj/Localizable.strings")

        let german = try coverage(root, "de")
        #expect(german.translated == 2 && german.total == 2)
        for paths in [[root.path], [root.path + "/de.lproj/Localizable.stringsdict"]] {
            let findings = ResourceLinter.lint(paths: paths)
            #expect(lintMissing(findings, "de") == 0, "\(findings)")
        }
    }

    /// An `.lproj`'s own file of a catalog's table translates the keys it has.
    @Test func anLprojFileOfACatalogsTableTranslatesItsKeys() throws {
        let root = try TemporaryDirectory()
        try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : { "Open" : { }, "Quit" : { } }
            }
            """, to: "Menu.xcstrings")
        try root.write("\"Open\" = \"Öffnen\";\n", to: "de.lproj/Menu.strings")
        let german = try coverage(root, "de")
        #expect(german.total - german.translated == 1)
        let findings = ResourceLinter.lint(paths: [root.path])
        #expect(
            lintMissing(findings, "de") + findings.filter { $0.message == "\"Quit\" has no de localization" }.count
                == 1, "\(findings)")
    }

    /// The same when the catalog has the language but not the key.
    @Test func anLprojFileTranslatesAKeyACatalogsLanguageLacks() throws {
        let root = try TemporaryDirectory()
        try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Open" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Auf" } } } },
                "Quit" : { }, "Save" : { }
              }
            }
            """, to: "Menu.xcstrings")
        try root.write("\"Quit\" = \"Beenden\";\n", to: "de.lproj/Menu.strings")
        let german = try coverage(root, "de")
        #expect(german.total - german.translated == 1)
        let findings = ResourceLinter.lint(paths: [root.path])
        #expect(findings.map(\.message) == ["\"Save\" has no de localization"], "\(findings)")
    }
}
