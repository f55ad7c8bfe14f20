/// CLDR's parent locales: the fallbacks that are not "drop the last subtag" (`zh-Hant-MO` →
/// `zh-Hant-HK`, `es-MX` → `es-419`, `pt-AO` → `pt-PT`, `nn` → `no`), from the carried
/// ``CLDRSnapshot``, under Apple's own parent map (``apple``: `en-AU` → `en-GB` → `en-001`,
/// `yue-Hant-HK` → `zh-Hant-HK`).
///
/// Apple's ICU walks these parents when it matches a preference with a bundle's
/// localizations (`ualoc_localizationsToUse` through `ualoc_getParent`, which asks its own
/// map first and CLDR's after); ``FallbackChain`` does the same.
///
/// ```swift
/// ParentLocales.ancestors(of: try LanguageTag("en-AU")).map(\.identifier)   // ["en-GB", "en-001"]
/// ```
package enum ParentLocales {
    /// `child` → `parent` pairs as CLDR writes them (`zh_Hant_MO` → `zh_Hant_HK`).
    static let table = CLDRSnapshot.pairs(CLDRSnapshot.parentLocales)

    /// Apple's parents where they differ from CLDR's, as apple-oss-distributions/ICU's
    /// `ualoc.cpp` (`appleParentMap`) has them; they win over CLDR's, as there. Why Apple
    /// has them: a bundle's `en-GB.lproj` is the British-English text Apple ships, and the
    /// Commonwealth regions (CLDR: `en-001`) read it before the generic `en-001`; Oceania
    /// reads `en-AU` first; Europe's English (`en-150`) reads British. Cantonese and Wu have
    /// no CLDR parent but read Chinese: Traditional Hong Kong for `yue`, Simplified for
    /// `yue-Hans` and `wuu`. (Apple's `zh_*` entries are left out: l10nd reaches the same
    /// folders through likely-subtag spellings, ``LikelySubtags/spellings(of:)``.)
    static let apple: [String: String] = {
        var map: [String: String] = [
            "en_150": "en_GB", "en_CY": "en_150", "ars": "ar",
            "yue_HK": "zh_Hant_HK", "yue_Hans": "zh_Hans", "wuu_Hans": "zh_Hans", "wuu_Hant": "zh_Hant",
        ]
        let british = """
            AG AI AU BB BD BM BN BS BW BZ DG DM FJ FK GD GG GH GI GM GY HK IE IM IN IO JE JM KE KI KN KY LC \
            LK LS MO MS MT MU MV MW MY NA NG PK PN SB SC SD SG SH SL SS SZ TC TO TT TV TZ UG VC VG VU ZA ZM ZW
            """
        for region in british.split(separator: " ") { map["en_\(region)"] = "en_GB" }
        for region in ["CC", "CK", "CX", "NF", "NR", "NU", "NZ", "PG", "WS"] { map["en_\(region)"] = "en_AU" }
        return map
    }()

    /// Parents followed at most: the longest chains are four (`en-NZ` → `en-AU` → `en-GB`
    /// → `en-001`); the bound keeps a bad table from looping.
    static let maximumDepth = 8

    /// The explicit parents of `tag` (maximized, as ``LikelySubtags/maximized(_:)`` gives
    /// it), nearest first, each as its map names it (`en-Latn-AU` → `en-GB`, `en-001`;
    /// `yue-Hans-CN` → `zh-Hans`). Between explicit parents the walk drops subtags as CLDR
    /// does — region, then script — and stops where CLDR's parent is `root`: after a
    /// script that is not its language's likely one (`sr-Latn`, `zh-Hant`), and after a
    /// bare language. Empty when no explicit parent is met.
    package static func ancestors(of tag: LanguageTag) -> [LanguageTag] {
        var result: [LanguageTag] = []
        var current: LanguageTag? = tag
        for _ in 0..<maximumDepth {
            guard let step = current else { break }
            if let parent = parent(of: step) {
                guard !result.contains(parent) else { break }
                result.append(parent)
                current = parent
            } else {
                current = truncated(step)
            }
        }
        return result
    }

    /// `tag` without its last subtag, as CLDR's inheritance drops it; `nil` where CLDR's
    /// parent is `root`.
    static func truncated(_ tag: LanguageTag) -> LanguageTag? {
        if tag.region != nil { return LanguageTag(language: tag.language, script: tag.script) }
        guard let script = tag.script else { return nil }
        let likely = LikelySubtags.maximized(LanguageTag(language: tag.language))?.script
        return script == likely ? LanguageTag(language: tag.language) : nil
    }

    /// The explicit parent of `tag` (Apple's map first, then CLDR's): the maps list
    /// `zh_Hant_MO` with its script, `en_AU` without, `yue_Hans` and `nn` alone.
    static func parent(of tag: LanguageTag) -> LanguageTag? {
        var keys: [String] = []
        if let region = tag.region {
            if let script = tag.script { keys.append("\(tag.language)_\(script)_\(region)") }
            keys.append("\(tag.language)_\(region)")
        } else if let script = tag.script {
            keys.append("\(tag.language)_\(script)")
        } else {
            keys.append(tag.language)
        }
        let name = keys.lazy.compactMap { apple[$0] ?? table[$0] }.first
        guard let name, name != "root" else { return nil }
        return LanguageTag(underscored: name)
    }
}

extension LanguageTag {
    /// A tag from CLDR's underscore form (`zh_Hant_HK`, `en_001`, `sr_Latn`), already
    /// normalised; `nil` for a shape CLDR does not use.
    init?(underscored name: String) {
        let parts = name.split(separator: "_").map(String.init)
        switch parts.count {
        case 1: self.init(language: parts[0])
        case 2 where parts[1].count == 4: self.init(language: parts[0], script: parts[1])
        case 2: self.init(language: parts[0], region: parts[1])
        case 3: self.init(language: parts[0], script: parts[1], region: parts[2])
        default: return nil
        }
    }
}
