/// The languages a lookup tries, most specific first.
///
/// For each preferred tag: the tag, then without variants, then with the region dropped,
/// then with the script dropped (`zh-Hant-TW` → `zh-Hant` → `zh`), with the implied
/// Chinese scripts filled in (`zh-TW` → `zh-Hant-TW` → `zh-Hant`, `zh-CN` → `zh-Hans`).
/// After every preferred tag: `Base`, then the development language's own chain.
/// Each language appears once, at its first place.
///
/// ```swift
/// let chain = FallbackChain(preferred: [try LanguageTag("sv"), try LanguageTag("de")],
///                           developmentLanguage: try LanguageTag("en"))
/// chain.candidates.map(\.identifier)   // ["sv", "de", "Base", "en"]
/// ```
public struct FallbackChain: Sendable, Hashable {
    /// The languages to try, in order.
    public let candidates: [LanguageTag]
    /// The candidates' identifiers, computed once so lookups do not rebuild them.
    public let identifiers: [String]

    /// Builds the chain for `preferred` tags (gettext's `LANGUAGE=sv:de` order).
    public init(preferred: [LanguageTag], developmentLanguage: LanguageTag) {
        var seen = Set<LanguageTag>()
        var candidates: [LanguageTag] = []
        func add(_ tags: [LanguageTag]) {
            for tag in tags where seen.insert(tag).inserted {
                candidates.append(tag)
            }
        }
        for tag in preferred where !tag.isBase {
            add(Self.expansion(of: tag))
        }
        add([.base])
        add(Self.expansion(of: developmentLanguage))
        self.candidates = candidates
        self.identifiers = candidates.map(\.identifier)
    }

    /// A tag and its less specific forms, most specific first.
    static func expansion(of tag: LanguageTag) -> [LanguageTag] {
        if tag.isBase { return [tag] }
        let script = tag.script ?? impliedScript(language: tag.language, region: tag.region)
        var result = [tag]
        if !tag.variants.isEmpty {
            result.append(LanguageTag(language: tag.language, script: tag.script, region: tag.region))
        }
        if tag.script == nil, let script, tag.region != nil {
            result.append(LanguageTag(language: tag.language, script: script, region: tag.region))
        }
        if let script {
            result.append(LanguageTag(language: tag.language, script: script))
        }
        result.append(LanguageTag(language: tag.language))
        if tag.script == nil, tag.region == nil, let script {
            // A bare `zh` reads as Simplified Chinese, as Apple's and ICU's likely subtags say.
            result.append(LanguageTag(language: tag.language, script: script))
        }
        var seen = Set<LanguageTag>()
        return result.filter { seen.insert($0).inserted }
    }

    /// The script a language and region imply where the tag leaves it out.
    ///
    /// Only Chinese needs this for lproj lookups: `zh-TW` content lives in `zh-Hant.lproj`.
    /// Serbian deliberately has none: `sr-RS` falls back to `sr`, whatever its script.
    static func impliedScript(language: String, region: String?) -> String? {
        guard language == "zh" else { return nil }
        switch region {
        case "TW", "HK", "MO": return "Hant"
        case nil, "CN", "SG", "MY": return "Hans"
        default: return nil
        }
    }
}
