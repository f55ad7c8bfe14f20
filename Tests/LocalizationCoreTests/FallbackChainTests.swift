import LocalizationCore
import Testing

@Suite struct FallbackChainTests {
    let english = LanguageTag(language: "en")

    func chain(_ tags: String..., development: String = "en") throws -> [String] {
        let preferred = try tags.map { try LanguageTag($0) }
        return FallbackChain(preferred: preferred, developmentLanguage: try LanguageTag(development)).identifiers
    }

    @Test func dropsRegionThenScript() throws {
        #expect(try chain("zh-Hant-TW") == ["zh-Hant-TW", "zh-Hant", "zh", "Base", "en"])
    }

    @Test(arguments: [
        ("zh-TW", ["zh-TW", "zh-Hant-TW", "zh-Hant", "zh", "Base", "en"]),
        ("zh-HK", ["zh-HK", "zh-Hant-HK", "zh-Hant", "zh", "Base", "en"]),
        ("zh-CN", ["zh-CN", "zh-Hans-CN", "zh-Hans", "zh", "Base", "en"]),
        ("zh-SG", ["zh-SG", "zh-Hans-SG", "zh-Hans", "zh", "Base", "en"]),
        ("zh", ["zh", "zh-Hans", "Base", "en"]),
        ("sr-RS", ["sr-RS", "sr", "Base", "en"]),
        ("sr-Latn-RS", ["sr-Latn-RS", "sr-Latn", "sr", "Base", "en"]),
        ("pt-BR", ["pt-BR", "pt", "Base", "en"]),
        ("ca-ES-valencia", ["ca-ES-valencia", "ca-ES", "ca", "Base", "en"]),
        ("en-GB", ["en-GB", "en", "Base"]),
        ("Base", ["Base", "en"]),
    ])
    func impliedScriptsAndOrder(tag: String, expected: [String]) throws {
        #expect(try chain(tag) == expected)
    }

    @Test func preferenceListChainsEachBeforeBase() throws {
        #expect(try chain("sv-SE", "de") == ["sv-SE", "sv", "de", "Base", "en"])
    }

    @Test func developmentLanguageExpandsToo() throws {
        #expect(try chain("fr", development: "en-US") == ["fr", "Base", "en-US", "en"])
    }

    @Test func emptyPreferenceFallsToBaseAndDevelopment() throws {
        #expect(FallbackChain(preferred: [], developmentLanguage: english).identifiers == ["Base", "en"])
    }
}
