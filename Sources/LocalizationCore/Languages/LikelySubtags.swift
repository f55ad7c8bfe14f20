/// CLDR's likely subtags: the script and region a tag leaves out (`zh-TW` is `zh-Hant-TW`,
/// `zh-Hant` is `zh-Hant-TW`, `zh` is `zh-Hans-CN`), from the carried ``CLDRSnapshot``.
///
/// Apple's `Bundle` matches localizations through this data, so `zh-TW.lproj` serves a
/// `zh-Hant` preference; ``FallbackChain`` does the same.
///
/// ```swift
/// LikelySubtags.maximized(try LanguageTag("zh-Hant"))?.identifier   // "zh-Hant-TW"
/// ```
package enum LikelySubtags {
    /// `from` → `to` pairs as CLDR writes them (`zh_Hant` → `zh_Hant_TW`).
    static let table = CLDRSnapshot.pairs(CLDRSnapshot.likelySubtags)

    /// `tag` with its script and region filled in (variants dropped), as CLDR's "add likely
    /// subtags" does; `nil` for a language CLDR has no data for, and for `Base`.
    package static func maximized(_ tag: LanguageTag) -> LanguageTag? {
        guard !tag.isBase else { return nil }
        let language = tag.language
        var keys: [String] = []
        if let script = tag.script, let region = tag.region { keys.append("\(language)_\(script)_\(region)") }
        if let region = tag.region { keys.append("\(language)_\(region)") }
        if let script = tag.script { keys.append("\(language)_\(script)") }
        keys.append(language)
        for key in keys {
            guard let match = table[key] else { continue }
            let parts = match.split(separator: "_")
            guard parts.count == 3 else { continue }
            return LanguageTag(
                language: language, script: tag.script ?? String(parts[1]), region: tag.region ?? String(parts[2]))
        }
        return nil
    }

    /// Every spelling of the locale `full` (maximized) names, longest first: `zh-Hant-TW`,
    /// `zh-TW`, `zh-Hant`, `zh` — each included only when it maximizes back to `full`.
    package static func spellings(of full: LanguageTag) -> [LanguageTag] {
        let language = full.language
        let forms = [
            LanguageTag(language: language, script: full.script, region: full.region),
            LanguageTag(language: language, region: full.region),
            LanguageTag(language: language, script: full.script),
            LanguageTag(language: language),
        ]
        return forms.filter { maximized($0) == full }
    }
}
