import LocalizationCore
import Testing

/// A well-formed tag whose language CLDR does not know is told apart from a real language,
/// and a country code written for a language names the language CLDR finds in that region.
@Suite struct UnknownLanguageTests {
    /// `kr` is Kanuri, a language: not every country code is a mistake.
    @Test(arguments: ["en", "ja", "zh-Hant-TW", "pt-BR", "Base", "English", "se", "gsw", "qaa", "und", "sr-Latn", "kr"])
    func knownLanguagesPass(tag: String) throws {
        #expect(UnknownLanguage.check(try LanguageTag(tag)) == nil)
    }

    @Test(arguments: [("jp", "ja"), ("cn", "zh"), ("gr", "el"), ("dk", "da"), ("ua", "uk"), ("cz", "cs")])
    func countryCodesNameTheirLanguage(tag: String, suggestion: String) throws {
        let unknown = try #require(UnknownLanguage.check(try LanguageTag(tag)))
        #expect(unknown.suggestion == suggestion)
        #expect(
            unknown.description
                == "'\(tag)' is not a language CLDR knows (did you mean '\(suggestion)', the language of region \(tag.uppercased())?)"
        )
    }

    @Test func anUnknownLanguageWithNoSuchRegionSaysSoPlainly() throws {
        let unknown = try #require(UnknownLanguage.check(try LanguageTag("xx")))
        #expect(unknown.suggestion == nil)
        #expect(unknown.description == "'xx' is not a language CLDR knows")
    }
}
