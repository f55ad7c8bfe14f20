import Synchronization

/// The languages a lookup tries, most specific first.
///
/// For each preferred tag: the tag, then without variants, then the other spellings of the
/// same locale under CLDR's likely subtags (`zh-Hant-TW` → `zh-TW` → `zh-Hant`), then the
/// script's own locale when the script is not the language's usual one
/// (`zh-Hant-HK` → `zh-Hant` → `zh-TW`), then the bare language (``expansion(of:)``).
/// After every preferred tag: Apple's last resorts (`pt-BR` for `pt-PT`), `Base`, then the
/// development language's own chain.
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
    /// Where the development language's part begins (the index after `Base`): a String
    /// Catalog's own source language is tried there (``ResourceCatalog``).
    package let developmentStart: Int
    /// How many leading candidates spell the first preference itself (`ja-JP`, then `ja`…):
    /// an answer from one of them is in the language asked for, any other came from a
    /// fallback. 0 when no answer counts as a fallback: no preference, `Base` first, or
    /// the development language first, whose users read the development strings.
    package let askedLanguageEnd: Int

    /// Builds the chain for `preferred` tags (gettext's `LANGUAGE=sv:de` order).
    public init(preferred: [LanguageTag], developmentLanguage: LanguageTag) {
        var seen = Set<LanguageTag>()
        var candidates: [LanguageTag] = []
        func add(_ tags: [LanguageTag]) {
            for tag in tags where seen.insert(tag).inserted {
                candidates.append(tag)
            }
        }
        var asked: [LanguageTag] = []
        for (index, tag) in preferred.enumerated() where !tag.isBase {
            let expansion = Self.cachedExpansion(of: tag)
            if index == 0 { asked = expansion }
            add(expansion)
        }
        for tag in preferred {
            add(Self.lastResort(for: tag))
        }
        add([.base])
        developmentStart = candidates.count
        add(Self.cachedExpansion(of: developmentLanguage))
        // The first preference's expansion went in first, whole: its candidates lead the chain.
        askedLanguageEnd = asked.contains(developmentLanguage) ? 0 : asked.count
        self.candidates = candidates
        self.identifiers = candidates.map(\.identifier)
    }

    /// A tag and its less specific forms, most specific first: the localizations Apple's
    /// `ualoc_localizationsToUse` matches with the preference (their CLDR parent chains meet).
    ///
    /// 1. The tag as written, then without variants.
    /// 2. Every other spelling of the same locale under CLDR's likely subtags: `zh-Hant-TW`,
    ///    `zh-TW` and `zh-Hant` are one locale, so each reaches the others' folders.
    /// 3. CLDR's own parent locales, each with its spellings (``ParentLocales``):
    ///    `zh-Hant-MO` → `zh-Hant-HK`/`zh-HK`, `en-AU` → `en-001`, `es-MX` → `es-419`.
    /// 4. When the script is not the language's usual one (`Hant` for `zh`, `Latn` for `sr`):
    ///    the script alone and that script's own locale (`zh-Hant-HK` → `zh-Hant` → `zh-TW`),
    ///    since the script is what the reader shares with it; then the bare language.
    /// 5. Else the bare language, the language with its script, and the language's own
    ///    locale (`zh-SG` → `zh` → `zh-Hans` → `zh-CN`; `en-AU` → `en` → `en-US`): Apple's
    ///    parent chains meet at the language, so its default region is the closest left —
    ///    except `pt-BR` for `pt-PT`, which Apple keeps as a last resort (``lastResort(for:)``).
    /// 6. The language's CLDR parent (`nb` → `no`).
    package static func expansion(of tag: LanguageTag) -> [LanguageTag] {
        if tag.isBase { return [tag] }
        let language = LanguageTag(language: tag.language)
        var result = [tag, LanguageTag(language: tag.language, script: tag.script, region: tag.region)]
        guard let full = LikelySubtags.maximized(tag) else {
            // CLDR knows nothing of the language: drop subtags one by one.
            if let script = tag.script { result.append(LanguageTag(language: tag.language, script: script)) }
            result.append(language)
            return unique(result + ParentLocales.ancestors(of: language))
        }
        result += LikelySubtags.spellings(of: full)
        for parent in ParentLocales.ancestors(of: full) {
            result.append(parent)
            if let maximizedParent = LikelySubtags.maximized(parent) {
                result += LikelySubtags.spellings(of: maximizedParent)
            }
        }
        let usualScript = LikelySubtags.maximized(language)?.script
        let scriptAlone = LanguageTag(language: tag.language, script: full.script)
        let scriptLocale = LikelySubtags.maximized(scriptAlone)
        if full.script != usualScript {
            result.append(scriptAlone)
            if let scriptLocale { result += LikelySubtags.spellings(of: scriptLocale) }
            result.append(language)
        } else {
            result += [language, scriptAlone]
            if let scriptLocale, lastResorts[full] != scriptLocale {
                result += LikelySubtags.spellings(of: scriptLocale)
            }
        }
        return unique(result + ParentLocales.ancestors(of: language))
    }

    /// Localizations Apple uses only when no preference matches anything else: `pt-BR` for
    /// `pt-PT` (`ualoc_localizationsToUse` sets such a match aside and returns it last).
    static let lastResorts: [LanguageTag: LanguageTag] = [
        LanguageTag(language: "pt", script: "Latn", region: "PT"): LanguageTag(
            language: "pt", script: "Latn", region: "BR")
    ]

    /// What `tag` falls to once every preference has been tried: `pt-BR` (and its spellings)
    /// for `pt-PT`; empty for any other tag.
    package static func lastResort(for tag: LanguageTag) -> [LanguageTag] {
        guard !tag.isBase, let full = LikelySubtags.maximized(tag), let resort = lastResorts[full] else { return [] }
        return LikelySubtags.spellings(of: resort)
    }

    /// Expansions already computed: embedded-mode lookups build a chain per call, and an
    /// expansion costs several likely-subtag searches. Bounded: emptied when full.
    private static let expansions = Mutex<[LanguageTag: [LanguageTag]]>([:])
    private static let expansionCacheCapacity = 512

    /// ``expansion(of:)``, remembered.
    static func cachedExpansion(of tag: LanguageTag) -> [LanguageTag] {
        if let known = expansions.withLock({ $0[tag] }) { return known }
        let expansion = expansion(of: tag)
        expansions.withLock { cache in
            if cache.count >= expansionCacheCapacity { cache.removeAll(keepingCapacity: true) }
            cache[tag] = expansion
        }
        return expansion
    }

    private static func unique(_ tags: [LanguageTag]) -> [LanguageTag] {
        var seen = Set<LanguageTag>()
        return tags.filter { seen.insert($0).inserted }
    }
}
