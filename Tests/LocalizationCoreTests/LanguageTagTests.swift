import LocalizationCore
import Testing

@Suite struct LanguageTagTests {
    @Test(arguments: [
        ("ja", "ja"), ("ja_JP", "ja-JP"), ("ja-JP", "ja-JP"), ("ja_JP.UTF-8", "ja-JP"),
        ("ja-jp", "ja-JP"), ("zh_Hant_TW", "zh-Hant-TW"), ("zh-hant-tw", "zh-Hant-TW"),
        ("pt-BR", "pt-BR"), ("English", "en"), ("Japanese", "ja"), ("French", "fr"),
        ("German", "de"), ("Spanish", "es"), ("Italian", "it"), ("Dutch", "nl"),
        ("Base", "Base"), ("base", "Base"), ("es-419", "es-419"), ("sr_RS@latin", "sr-Latn-RS"),
        ("de_DE.ISO-8859-1@euro", "de-DE"), ("sr-Latn", "sr-Latn"), ("ca-ES-valencia", "ca-ES-valencia"),
        ("en-XA", "en-XA"), ("fil", "fil"),
        // Extensions and private use do not choose a localization (ICU drops them); an
        // extended language stands under its primary language.
        ("es-ES-u-co-trad", "es-ES"), ("en-US-u-rg-gbzzzz", "en-US"), ("en-US-x-twain", "en-US"),
        ("zh-cmn-Hans-CN", "zh-Hans-CN"),
    ])
    func normalises(input: String, expected: String) throws {
        #expect(try LanguageTag(input).identifier == expected)
    }

    @Test(arguments: [
        "", "../x", "ja/../../etc", String(repeating: "a", count: 200), "C", "j", "ja__JP",
        "ja-JP-", "12", "ja JP", "ja-Hant-TW-x", "日本語", "ja-JP\u{0}",
    ])
    func rejects(input: String) {
        #expect(throws: LanguageTagError.self) { try LanguageTag(input) }
    }

    /// A folder named with a private-use part names no language: forty `qaa-x-N.lproj`
    /// folders are listed in status, not all served as `qaa`.
    @Test func aFolderNameKeepsItsExtension() {
        #expect(ResourceFile.language(ofDirectory: "qaa-x-26.lproj") == nil)
        #expect(ResourceFile.language(ofDirectory: "es-ES-u-co-trad.lproj") == nil)
        #expect(ResourceFile.language(ofDirectory: "es-ES.lproj")?.identifier == "es-ES")
    }

    @Test func errorsSayWhatIsWrong() {
        do {
            _ = try LanguageTag("../x")
            Issue.record("accepted ../x")
        } catch {
            #expect(error.code == "bad_language")
            #expect(error.description.contains("'../x' is not a language tag"))
        }
    }

    @Test func longInputIsCutInTheMessage() {
        let error = #expect(throws: LanguageTagError.self) { try LanguageTag(String(repeating: "a", count: 200)) }
        #expect((error?.description.count ?? 0) < 120)
    }
}
