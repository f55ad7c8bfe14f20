import LocalizationCore
import Testing

/// The matching cases of issue 25, as Apple's ICU (`ualoc_localizationsToUse`) has them:
/// its alias map, its parent map over CLDR's, `root` under a script that is not the
/// language's likely one, and the folder list (a same-language regional folder, an old code).
@Suite struct FallbackChainAppleMatchingTests {
    static let english = LanguageTag(language: "en")

    /// The chain of `preferred` for a root whose localizations are `available`.
    static func chain(_ preferred: [String], available: [String] = []) throws -> [String] {
        FallbackChain(
            preferred: try preferred.map { try LanguageTag($0) }, developmentLanguage: english,
            available: try available.map { try LanguageTag($0) }
        ).identifiers
    }

    struct Case: CustomTestStringConvertible, Sendable {
        /// The preferences, most preferred first.
        let preferred: [String]
        /// The root's localizations (empty: the chain without the folder list).
        let available: [String]
        /// Languages the chain reaches before `Base`, in this order (others may lie between).
        let reaches: [String]
        /// Languages the chain never reaches before `Base`.
        let never: [String]
        var testDescription: String {
            "\(preferred.joined(separator: ","))" + (available.isEmpty ? "" : " with \(available)")
        }
    }

    static let cases: [Case] = [
        // Apple's parent map: the Commonwealth through en-GB, Oceania through en-AU.
        Case(preferred: ["en-AU"], available: [], reaches: ["en-AU", "en-GB", "en-001", "en"], never: []),
        Case(preferred: ["en-IN"], available: [], reaches: ["en-IN", "en-GB", "en-001", "en"], never: []),
        Case(preferred: ["en-NZ"], available: [], reaches: ["en-NZ", "en-AU", "en-GB", "en-001", "en"], never: []),
        Case(preferred: ["en-AU", "en-GB"], available: [], reaches: ["en-AU", "en-GB", "en-001", "en"], never: []),
        Case(preferred: ["en-AU"], available: ["en-GB", "fr"], reaches: ["en-GB"], never: ["fr"]),
        // Cantonese reads Hong Kong's Traditional Chinese; Simplified Cantonese, Simplified.
        Case(
            preferred: ["yue"], available: [],
            reaches: ["yue", "yue-Hant-HK", "zh-Hant-HK", "zh-HK", "zh-Hant", "zh-TW"],
            never: ["zh", "zh-Hans", "zh-CN"]),
        Case(
            preferred: ["yue-Hant-HK"], available: [], reaches: ["yue-Hant-HK", "yue", "zh-Hant-HK", "zh-HK"],
            never: ["zh", "zh-Hans"]),
        Case(
            preferred: ["yue-Hans"], available: [], reaches: ["yue-Hans", "zh-Hans", "zh-CN", "zh"],
            never: ["yue", "zh-Hant", "zh-TW", "zh-HK"]),
        Case(preferred: ["yue"], available: ["zh-HK", "zh-CN"], reaches: ["zh-HK"], never: ["zh-CN"]),
        // A script that is not the language's likely one has `root` for parent.
        Case(preferred: ["sr-Latn-RS"], available: [], reaches: ["sr-Latn-RS", "sr-Latn"], never: ["sr", "sr-Cyrl"]),
        Case(preferred: ["sr-Latn-RS"], available: ["sr", "en"], reaches: ["sr-Latn"], never: ["sr"]),
        Case(preferred: ["sr"], available: ["sr-Latn"], reaches: ["sr", "sr-Cyrl"], never: ["sr-Latn"]),
        Case(preferred: ["zh-TW"], available: [], reaches: ["zh-TW", "zh-Hant"], never: ["zh", "zh-Hans", "zh-CN"]),
        Case(preferred: ["zh-Hans"], available: ["zh-HK"], reaches: ["zh-Hans", "zh"], never: ["zh-HK"]),
        // Aliases: old codes are the current ones, both ways.
        Case(preferred: ["iw"], available: [], reaches: ["iw", "he", "he-IL"], never: []),
        Case(preferred: ["iw-IL"], available: [], reaches: ["iw-IL", "he-IL", "he"], never: []),
        Case(preferred: ["in"], available: [], reaches: ["in", "id", "id-ID"], never: []),
        Case(preferred: ["ji"], available: [], reaches: ["ji", "yi"], never: []),
        Case(preferred: ["sh"], available: [], reaches: ["sh", "sr-Latn"], never: ["sr", "sr-Cyrl"]),
        Case(preferred: ["he"], available: ["iw", "fr"], reaches: ["he", "iw"], never: ["fr"]),
        Case(preferred: ["id-ID"], available: ["in"], reaches: ["id", "in"], never: []),
        // Norwegian: `no` is Bokmål (Apple's alias), `nn` reaches it through CLDR's parent `no`.
        Case(preferred: ["no"], available: [], reaches: ["no", "nb", "nb-NO"], never: []),
        Case(preferred: ["no"], available: ["nb", "da"], reaches: ["nb"], never: ["da"]),
        Case(preferred: ["nn"], available: ["nb", "da"], reaches: ["nn", "no", "nb"], never: ["da"]),
        Case(preferred: ["nb"], available: ["no"], reaches: ["nb", "no"], never: []),
        // A same-language regional folder, the only one there is.
        Case(preferred: ["nl"], available: ["nl-BE", "en"], reaches: ["nl", "nl-BE"], never: []),
        Case(preferred: ["nl-NL"], available: ["nl-BE", "en"], reaches: ["nl-NL", "nl", "nl-BE"], never: []),
        Case(preferred: ["es"], available: ["es-419", "en"], reaches: ["es", "es-419"], never: []),
        Case(preferred: ["de-AT"], available: ["de-CH"], reaches: ["de-AT", "de", "de-CH"], never: []),
        Case(preferred: ["en"], available: ["en-AU", "en-GB"], reaches: ["en", "en-GB", "en-AU"], never: []),
        Case(preferred: ["pt"], available: ["pt-PT"], reaches: ["pt", "pt-PT"], never: []),
        Case(preferred: ["fr"], available: ["fr-CA", "de"], reaches: ["fr", "fr-CA"], never: ["de"]),
        // ... before the next preference, as Apple takes the first preference with a match.
        Case(preferred: ["nl", "de"], available: ["nl-BE", "de"], reaches: ["nl", "nl-BE", "de"], never: []),
        // ... but never another language's, and Portugal's Brazil stays Apple's last resort.
        Case(preferred: ["nl"], available: ["de-AT", "fr-BE"], reaches: ["nl"], never: ["de-AT", "fr-BE"]),
        Case(preferred: ["pt-PT", "fr"], available: ["pt-BR", "fr"], reaches: ["pt-PT", "fr", "pt-BR"], never: []),
    ]

    @Test(arguments: cases)
    func reachesWhatAppleMatches(_ example: Case) throws {
        let chain = try Self.chain(example.preferred, available: example.available)
        let beforeBase = Array(chain.prefix(while: { $0 != "Base" }))
        var last = -1
        for language in example.reaches {
            let index = try #require(beforeBase.firstIndex(of: language), "\(language) not before Base: \(chain)")
            #expect(index > last, "\(language) out of order: \(chain)")
            last = index
        }
        for language in example.never {
            #expect(!beforeBase.contains(language), "\(language) reached: \(chain)")
        }
    }

    /// A language reached only through the folder list is one of the first preference's
    /// own: its answers are no fallback for the missing-key report.
    @Test func regionalFolderAnswersAreInTheLanguageAsked() throws {
        let chain = FallbackChain(
            preferred: [try LanguageTag("nl")], developmentLanguage: Self.english,
            available: [try LanguageTag("nl-BE"), Self.english])
        #expect(chain.untranslatedLanguage(servedBy: try LanguageTag("nl-BE")) == nil)
        #expect(chain.untranslatedLanguage(servedBy: .base) == "nl")
    }

    /// The catalog builds its chains with the languages it has: every path (files, daemon,
    /// compiled tables) asks it.
    @Test func catalogChainsUseItsLanguages() throws {
        var catalog = ResourceCatalog(developmentLanguage: Self.english)
        catalog.setTable(
            LocalizationTable(entries: ["Save": TableEntry(value: "Opslaan")]), language: "nl-BE", name: "Localizable")
        catalog.setTable(
            LocalizationTable(entries: ["Save": TableEntry(value: "Save")]), language: "en", name: "Localizable")
        let result = catalog.lookup("Save", chain: catalog.chain([try LanguageTag("nl")]))
        #expect(result.value == "Opslaan")
        #expect(result.language?.identifier == "nl-BE")
    }
}
