import LocalizationCore
import Testing

@Suite struct FallbackChainTests {
    let english = LanguageTag(language: "en")

    func chain(_ tags: String..., development: String = "en") throws -> [String] {
        let preferred = try tags.map { try LanguageTag($0) }
        return FallbackChain(preferred: preferred, developmentLanguage: try LanguageTag(development)).identifiers
    }

    /// The development language's chain (`en` and its likely spellings), after `Base`.
    let englishTail = ["Base", "en", "en-Latn-US", "en-US", "en-Latn"]

    @Test func sameLocaleSpellingsThenScriptThenLanguage() throws {
        #expect(try chain("zh-Hant-TW") == ["zh-Hant-TW", "zh-TW", "zh-Hant"] + englishTail)
    }

    @Test(arguments: [
        ("zh-TW", ["zh-TW", "zh-Hant-TW", "zh-Hant"]),
        ("zh-Hant", ["zh-Hant", "zh-Hant-TW", "zh-TW"]),
        ("zh-HK", ["zh-HK", "zh-Hant-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"]),
        ("zh-Hant-HK", ["zh-Hant-HK", "zh-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"]),
        ("zh-CN", ["zh-CN", "zh-Hans-CN", "zh-Hans", "zh"]),
        ("zh-Hans", ["zh-Hans", "zh-Hans-CN", "zh-CN", "zh"]),
        ("zh-SG", ["zh-SG", "zh-Hans-SG", "zh", "zh-Hans", "zh-Hans-CN", "zh-CN"]),
        ("zh-MO", ["zh-MO", "zh-Hant-MO", "zh-Hant-HK", "zh-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"]),
        ("zh-Hant-MO", ["zh-Hant-MO", "zh-MO", "zh-Hant-HK", "zh-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"]),
        ("es-MX", ["es-MX", "es-Latn-MX", "es-419", "es-Latn-419", "es", "es-Latn", "es-Latn-ES", "es-ES"]),
        ("nb", ["nb", "nb-Latn-NO", "nb-NO", "nb-Latn", "no", "no-Latn-NO", "no-NO", "no-Latn"]),
        ("zh", ["zh", "zh-Hans-CN", "zh-CN", "zh-Hans"]),
        ("sr-RS", ["sr-RS", "sr-Cyrl-RS", "sr-Cyrl", "sr"]),
        ("sr-Latn-RS", ["sr-Latn-RS", "sr-Latn"]),
        ("pt-PT", ["pt-PT", "pt-Latn-PT", "pt", "pt-Latn", "pt-Latn-BR", "pt-BR"]),
        ("ca-ES-valencia", ["ca-ES-valencia", "ca-ES", "ca-Latn-ES", "ca-Latn", "ca"]),
        ("qaa-QM", ["qaa-QM", "qaa"]),
    ])
    func likelySubtagsAndOrder(tag: String, expected: [String]) throws {
        #expect(try chain(tag) == expected + englishTail)
    }

    /// An answer from the first preference's own spellings is in the language asked for;
    /// any other (a later preference, `Base`, the development language) is a fallback.
    @Test(
        arguments: [
            (["ja-JP"], "ja", nil), (["ja-JP"], "ja-JP", nil), (["ja-JP"], "Base", "ja-JP"), (["ja"], "en", "ja"),
            (["sv", "de"], "de", "sv"), (["pt-PT"], "pt-BR", "pt-PT"),
            // Users of the development language read its strings: never a fallback for them.
            (["en-GB"], "Base", nil), (["en"], "Base", nil), (["Base", "ja"], "en", nil), ([], "Base", nil),
        ] as [([String], String, String?)])
    func untranslatedLanguageIsTheFirstPreferenceWhenAFallbackAnswered(
        _ preferred: [String], _ served: String, _ expected: String?
    ) throws {
        let chain = FallbackChain(preferred: try preferred.map { try LanguageTag($0) }, developmentLanguage: english)
        let tag = served == "Base" ? LanguageTag.base : try LanguageTag(served)
        #expect(chain.untranslatedLanguage(servedBy: tag) == expected)
    }

    /// Apple's `ualoc_localizationsToUse` sets `pt-BR` aside for a `pt-PT` preference and
    /// uses it only when no preference matches anything else: after every preferred tag.
    @Test func portugalReachesBrazilOnlyAsALastResort() throws {
        let tried = try chain("pt-PT", "fr")
        #expect(tried.firstIndex(of: "pt-BR")! > tried.firstIndex(of: "fr-FR")!)
        #expect(tried.firstIndex(of: "pt-BR")! < tried.firstIndex(of: "Base")!)
        // Any other region reaches its language's own locale before the next preference.
        let australian = try chain("en-AU", "fr", development: "de")
        #expect(australian.firstIndex(of: "en-US")! < australian.firstIndex(of: "fr")!)
        #expect(australian.prefix(6) == ["en-AU", "en-Latn-AU", "en-GB", "en-Latn-GB", "en-001", "en-Latn-001"])
    }

    @Test func baseAndEnglish() throws {
        #expect(try chain("Base") == englishTail)
        #expect(
            try chain("en-GB") == [
                "en-GB", "en-Latn-GB", "en-001", "en-Latn-001", "en", "en-Latn", "en-Latn-US", "en-US", "Base",
            ])
    }

    @Test func preferenceListChainsEachBeforeBase() throws {
        let tried = try chain("sv-SE", "de")
        #expect(tried.prefix(4) == ["sv-SE", "sv-Latn-SE", "sv-Latn", "sv"])
        #expect(tried.firstIndex(of: "de")! > tried.firstIndex(of: "sv")!)
        #expect(tried.firstIndex(of: "Base")! > tried.firstIndex(of: "de-DE")!)
    }

    @Test func developmentLanguageExpandsToo() throws {
        #expect(try chain("fr", development: "en-US").suffix(5) == ["Base", "en-US", "en-Latn-US", "en-Latn", "en"])
    }

    @Test func emptyPreferenceFallsToBaseAndDevelopment() throws {
        #expect(FallbackChain(preferred: [], developmentLanguage: english).identifiers == englishTail)
    }
}
