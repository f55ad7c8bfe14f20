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
