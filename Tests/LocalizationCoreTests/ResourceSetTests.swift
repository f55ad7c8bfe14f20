import Foundation
import LocalizationCore
import TestSupport
import Testing

@Suite struct ResourceSetTests {
    let examples = ResourceSet.load(roots: [PackagePaths.exampleResources])

    func lookup(_ key: String, _ tags: String..., table: String? = nil, in set: ResourceSet? = nil) throws
        -> LookupResult
    {
        try (set ?? examples).lookup(key, languages: tags.map { try LanguageTag($0) }, table: table)
    }

    @Test func examplesLoadWithoutErrors() {
        #expect(examples.errors.isEmpty, "\(examples.errors)")
        #expect(examples.catalog.languages.map(\.identifier).contains("ja"))
    }

    @Test func seedLookups() throws {
        #expect(try lookup("多言語化", "en").value == "Multilingualization")
        #expect(try lookup("多言語化", "ja").value == "多言語化")
        #expect(try lookup("多言語化", "ja").language?.identifier == "ja")
    }

    @Test func perKeyFallbackSaysWhoServed() throws {
        let saved = try lookup("保存", "ja")
        #expect(saved.value == "Save")
        #expect(saved.found)
        #expect(saved.language?.identifier == "Base")
    }

    @Test func regionAndScriptFallback() throws {
        #expect(try lookup("多言語化", "ja_JP.UTF-8").value == "多言語化")
        #expect(try lookup("多言語化", "zh-TW").value == "多語言化")
        #expect(try lookup("多言語化", "zh-CN").value == "多语言化")
        #expect(try lookup("多言語化", "pt-BR").value == "Multilinguismo")
        // Apple's last resort: with no other preference, pt-PT is served Brazilian text.
        #expect(try lookup("多言語化", "pt-PT").value == "Multilinguismo")
        #expect(try lookup("多言語化", "Japanese").value == "多言語化")
    }

    @Test func preferenceListTriesEachInTurn() throws {
        let result = try lookup("保存", "ja", "de")
        #expect(result.value == "Sichern")
        #expect(result.language?.identifier == "de")
    }

    @Test func missingEverywhereReturnsTheKey() throws {
        let result = try lookup("no such key", "ja")
        #expect(result.value == "no such key")
        #expect(!result.found)
        #expect(result.language == nil)
    }

    @Test func otherTables() throws {
        #expect(try lookup("title", "ja", table: "Settings").value == "環境設定")
        #expect(try lookup("title", "fr", table: "Settings").value == "Preferences")
        #expect(try lookup("title", "ja", table: "").value == "title")
    }

    @Test func resolvedTableTakesEachKeyFromTheFirstLanguageThatHasIt() throws {
        let table = examples.catalog.resolvedTable(chain: examples.catalog.chain([try LanguageTag("ja")]))
        #expect(table["多言語化"]?.value == "多言語化")
        #expect(table["保存"]?.value == "Save")
        #expect(table["保存"]?.language?.identifier == "Base")
        #expect(table["about.title"]?.language?.identifier == "Base")
    }

    @Test func earlierRootsWinAndBrokenFilesAreReported() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        try first.write(#""greeting" = "first";"#, to: "ja.lproj/Localizable.strings")
        try second.write(#""greeting" = "second"; "only" = "second only";"#, to: "ja.lproj/Localizable.strings")
        try second.write(#""broken" = "#, to: "fr.lproj/Localizable.strings")
        let set = ResourceSet.load(roots: [first.path, second.path])
        #expect(try lookup("greeting", "ja", in: set).value == "first")
        #expect(try lookup("only", "ja", in: set).value == "second only")
        #expect(set.errors.count == 1)
        #expect(set.errors.first?.location.file?.hasSuffix("fr.lproj/Localizable.strings") == true)
    }

    @Test func stringsdictOverridesStringsInOneLproj() throws {
        let root = try TemporaryDirectory()
        try root.write(#""files" = "from strings"; "plain" = "plain";"#, to: "en.lproj/Localizable.strings")
        try root.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>files</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
            <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict>
            </dict></dict></plist>
            """, to: "en.lproj/Localizable.stringsdict")
        let set = ResourceSet.load(roots: [root.path])
        #expect(try lookup("files", "en", in: set).value == "%d files")
        #expect(try lookup("files", "en", in: set).entry?.plural != nil)
        #expect(try lookup("plain", "en", in: set).value == "plain")
    }

    @Test func lprojOverridesStringCatalog() throws {
        let root = try TemporaryDirectory()
        try root.write(
            """
            {"sourceLanguage":"en","version":"1.0","strings":{
              "hello":{"localizations":{"ja":{"stringUnit":{"state":"translated","value":"カタログ"}}}},
              "bye":{"localizations":{"ja":{"stringUnit":{"state":"translated","value":"さようなら"}}}}}}
            """, to: "Localizable.xcstrings")
        try root.write(#""hello" = "lproj";"#, to: "ja.lproj/Localizable.strings")
        let set = ResourceSet.load(roots: [root.path])
        #expect(try lookup("hello", "ja", in: set).value == "lproj")
        #expect(try lookup("bye", "ja", in: set).value == "さようなら")
    }

    @Test func hiddenDirectoriesAndLinkLoopsAreSafe() throws {
        let root = try TemporaryDirectory()
        try root.write(#""k" = "v";"#, to: "..2026_01_01/ja.lproj/Localizable.strings")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/..data", withDestinationPath: "..2026_01_01")
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/ja.lproj", withDestinationPath: "..data/ja.lproj")
        try FileManager.default.createDirectory(atPath: root.path + "/loop", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.path + "/loop/again", withDestinationPath: "..")
        let set = ResourceSet.load(roots: [root.path])
        #expect(set.files.count == 1)
        #expect(try lookup("k", "ja", in: set).value == "v")
    }

    /// Skipped where `../shared/corpus/iina` is absent (a user's own clone has none).
    @Test(.enabled(if: PackagePaths.corpus != nil, "the corpus ../shared/corpus/iina is absent"))
    func corpusFallsBackAcrossRealLanguages() throws {
        let corpus = try #require(PackagePaths.corpus)
        let set = ResourceSet.load(roots: [corpus])
        #expect(set.catalog.languages.count >= 50)
        // zh-TW has no lproj of its own in the corpus: it must reach zh-Hant, not zh-Hans.
        let hant = try lookup("general.ok", "zh-Hant", in: set)
        let taiwan = try lookup("general.ok", "zh-TW", in: set)
        #expect(taiwan.language?.identifier == "zh-Hant")
        #expect(taiwan.value == hant.value)
        // pt-PT has no lproj: it drops its region to `pt`, never sideways to `pt-BR`.
        let portugal = try lookup("general.cancel", "pt-PT", in: set)
        #expect(portugal.language?.identifier == "pt")
        // sr-RS is Cyrillic Serbian by CLDR's likely subtags: sr-Cyrl before plain `sr`.
        #expect(try lookup("general.cancel", "sr-RS", in: set).language?.identifier == "sr-Cyrl")
        #expect(try lookup("general.cancel", "sr-Latn-RS", in: set).language?.identifier == "sr-Latn")
        let japanese = try lookup("general.cancel", "ja_JP.UTF-8", in: set)
        #expect(japanese.value == "キャンセル")
        #expect(japanese.language?.identifier == "ja")
    }
}
