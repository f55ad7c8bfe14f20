import Synchronization

/// The languages a lookup tries, most specific first.
///
/// For each preferred tag (an old code such as `iw` as written, then as its current one,
/// ``LanguageAliases``): the tag, then without variants, then the other spellings of the
/// same locale under CLDR's likely subtags (`zh-Hant-TW` → `zh-TW` → `zh-Hant`), then its
/// parents, Apple's over CLDR's (`en-AU` → `en-GB` → `en-001`, ``ParentLocales``), then
/// the script's own locale when the script is not the language's usual one
/// (`zh-Hant-HK` → `zh-Hant` → `zh-TW`, and no further: `sr-Latn` never reaches `sr`),
/// else the bare language (``expansion(of:)``); with the root's localizations, the ones
/// only the list names (an `iw.lproj` for `he`, the only `nl-BE.lproj` for `nl`). After
/// every preferred tag: Apple's last resorts (`pt-BR` for `pt-PT`), `Base`, then the
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

    /// Builds the chain for `preferred` tags (gettext's `LANGUAGE=sv:de` order), for a
    /// root whose localizations are `available` (its folders and catalog languages).
    ///
    /// With `available`, each preference also reaches the localizations the rules above
    /// cannot name without the list (``matchingFolders(for:expansion:available:)``): one
    /// named with an old code (`iw.lproj` for `he`), and, after its own expansion, one of
    /// the same language whose CLDR parents meet it (`nl` reaches the only `nl-BE.lproj`,
    /// `es` reaches `es-419.lproj`), nearest first — Apple's `ualoc_localizationsToUse`
    /// takes the first preference with any such match.
    public init(preferred: [LanguageTag], developmentLanguage: LanguageTag, available: [LanguageTag] = []) {
        var seen = Set<LanguageTag>()
        var candidates: [LanguageTag] = []
        func add(_ tags: [LanguageTag]) {
            for tag in tags where seen.insert(tag).inserted {
                candidates.append(tag)
            }
        }
        let folders = available.filter { !$0.isBase }
        var asked: [LanguageTag] = []
        for (index, tag) in preferred.enumerated() where !tag.isBase {
            let expansion = Self.matchingFolders(for: tag, expansion: Self.cachedExpansion(of: tag), available: folders)
            if index == 0 { asked = expansion }
            add(expansion)
        }
        for tag in preferred {
            add(Self.lastResort(for: tag))
        }
        add([.base])
        developmentStart = candidates.count
        add(
            Self.matchingFolders(
                for: developmentLanguage, expansion: Self.cachedExpansion(of: developmentLanguage), available: folders))
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
    /// 3. The parent locales, Apple's over CLDR's, each with its spellings (``ParentLocales``):
    ///    `zh-Hant-MO` → `zh-Hant-HK`/`zh-HK`, `en-AU` → `en-GB` → `en-001`, `es-MX` →
    ///    `es-419`, `yue` → `zh-Hant-HK`, `yue-Hans` → `zh-Hans`.
    /// 4. When the script is not the language's usual one (`Hant` for `zh`, `Latn` for `sr`):
    ///    the script alone and that script's own locale (`zh-Hant-HK` → `zh-Hant` → `zh-TW`),
    ///    since the script is what the reader shares with it — and nothing after: CLDR's
    ///    parent of such a script is `root`, so `sr-Latn` never reaches the Cyrillic `sr`.
    /// 5. Else the bare language, the language with its script, and the language's own
    ///    locale (`zh-SG` → `zh` → `zh-Hans` → `zh-CN`; `en-AU` → `en` → `en-US`): Apple's
    ///    parent chains meet at the language, so its default region is the closest left —
    ///    except `pt-BR` for `pt-PT`, which Apple keeps as a last resort (``lastResort(for:)``).
    /// 6. The language's CLDR parent (`nb` → `no`).
    ///
    /// A tag with an old language code (`iw`, `in`, `ji`, `no`: ``LanguageAliases``) is tried
    /// as written, then expanded as its current code (`he`, `id`, `yi`, `nb`).
    package static func expansion(of tag: LanguageTag) -> [LanguageTag] {
        if tag.isBase { return [tag] }
        let language = LanguageTag(language: tag.language)
        var result = [tag, LanguageTag(language: tag.language, script: tag.script, region: tag.region)]
        // An old code (`iw-IL`): as written first, then everything its current code reaches.
        if let canonical = LanguageAliases.canonical(tag), canonical.language != tag.language,
            LanguageAliases.canonical(canonical) == nil
        {
            return unique(result + expansion(of: canonical))
        }
        guard let full = LikelySubtags.maximized(tag) else {
            // CLDR knows nothing of the language: drop subtags one by one.
            if let script = tag.script { result.append(LanguageTag(language: tag.language, script: script)) }
            result.append(language)
            return unique(result + ParentLocales.ancestors(of: language))
        }
        result += LikelySubtags.spellings(of: full)
        for parent in ParentLocales.ancestors(of: full) {
            // Another language's locale (`yue` → `zh-Hant-HK`) goes on as that locale does
            // (to `zh-Hant`, `zh-TW`); the tag's own language's steps come below. An old code
            // (`nb`'s parent `no`, which Apple reads as `nb`) would lead back: spellings only.
            if parent.language != tag.language, LanguageAliases.canonical(parent) == nil {
                result += cachedExpansion(of: parent)
                continue
            }
            result.append(parent)
            if let maximizedParent = LikelySubtags.maximized(parent) {
                result += LikelySubtags.spellings(of: maximizedParent)
            }
        }
        let usualScript = LikelySubtags.maximized(language)?.script
        let scriptAlone = LanguageTag(language: tag.language, script: full.script)
        let scriptLocale = LikelySubtags.maximized(scriptAlone)
        if full.script != usualScript {
            // CLDR's parent of a script that is not the language's likely one is `root`
            // (`sr-Latn`, `zh-Hant`): the bare language is another script's text, never reached.
            result.append(scriptAlone)
            if let scriptLocale { result += LikelySubtags.spellings(of: scriptLocale) }
            return unique(result)
        }
        result += [language, scriptAlone]
        if let scriptLocale, lastResorts[full] != scriptLocale {
            result += LikelySubtags.spellings(of: scriptLocale)
        }
        return unique(result + ParentLocales.ancestors(of: language))
    }

    /// `expansion` (of `tag`) with the `available` localizations it matches only through
    /// the folder list: after each candidate, a localization named with an old code for it
    /// (`iw.lproj` after `he`, `no.lproj` after `nb`); after all of them, the localizations
    /// whose own expansion meets this one (the same language under CLDR's parents: `nl-BE`
    /// for `nl`, `es-419` for `es`, `en-GB` for `en`), nearest first as Apple scores them —
    /// the sum of both positions where they meet, one more for a localization of a region
    /// that is not its language's likely one (`penalizeNonDefaultCountry`) — then by name.
    /// Apple's last resorts (`pt-BR` for `pt-PT`) are left to ``lastResort(for:)``.
    package static func matchingFolders(for tag: LanguageTag, expansion: [LanguageTag], available: [LanguageTag])
        -> [LanguageTag]
    {
        guard !available.isEmpty, !tag.isBase else { return expansion }
        var result: [LanguageTag] = []
        let reached = Set(expansion)
        for candidate in expansion {
            result.append(candidate)
            result += available.filter { !reached.contains($0) && LanguageAliases.canonical($0) == candidate }
        }
        let taken = Set(result)
        let resort = Set(lastResort(for: tag))
        let positions = Dictionary(expansion.enumerated().map { ($1, $0) }) { first, _ in first }
        var related: [(score: Int, folder: LanguageTag)] = []
        for folder in available where !taken.contains(folder) && !resort.contains(folder) {
            let own = cachedExpansion(of: folder)
            let meetings = own.enumerated().compactMap { index, step in positions[step].map { $0 + index } }
            guard let nearest = meetings.min() else { continue }
            related.append((nearest + (isOtherRegion(folder) ? 1 : 0), folder))
        }
        related.sort { ($0.score, $0.folder.identifier) < ($1.score, $1.folder.identifier) }
        return result + related.map(\.folder)
    }

    /// Whether `folder` names a region other than its language's likely one (`nl-BE`, not
    /// `nl-NL`): Apple ranks such a localization one step further.
    static func isOtherRegion(_ folder: LanguageTag) -> Bool {
        guard folder.region != nil, let full = LikelySubtags.maximized(folder) else { return false }
        let likely = LikelySubtags.maximized(LanguageTag(language: folder.language, script: full.script))
        return likely?.region != full.region
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
