/// CLDR's parent locales: the fallbacks that are not "drop the last subtag" (`zh-Hant-MO` →
/// `zh-Hant-HK`, `en-AU` → `en-001`, `es-MX` → `es-419`, `pt-AO` → `pt-PT`), from the
/// carried ``CLDRSnapshot``.
///
/// Apple's ICU walks these parents when it matches a preference with a bundle's
/// localizations (`ualoc_localizationsToUse` through `ualoc_getParent`); ``FallbackChain``
/// does the same.
///
/// ```swift
/// ParentLocales.ancestors(of: try LanguageTag("zh-Hant-MO")).map(\.identifier)   // ["zh-Hant-HK"]
/// ```
package enum ParentLocales {
    /// `child` → `parent` pairs as CLDR writes them (`zh_Hant_MO` → `zh_Hant_HK`).
    static let table = CLDRSnapshot.pairs(CLDRSnapshot.parentLocales)

    /// Parents followed at most: CLDR's chains are two long (`en-AU` → `en-001`, `pt-AO` →
    /// `pt-PT`); the bound keeps a bad table from looping.
    static let maximumDepth = 4

    /// The explicit CLDR parents of `tag`, nearest first, each as CLDR names it
    /// (`en-Latn-AU` → `en-001`; `zh-Hant-MO` → `zh-Hant-HK`). Empty when its parent is
    /// simply the tag without its last subtag.
    package static func ancestors(of tag: LanguageTag) -> [LanguageTag] {
        var result: [LanguageTag] = []
        var current = tag
        for _ in 0..<maximumDepth {
            guard let parent = parent(of: current), !result.contains(parent) else { break }
            result.append(parent)
            current = parent
        }
        return result
    }

    /// The explicit parent of `tag`: CLDR lists `zh_Hant_MO` with its script and `en_AU`
    /// without, so both spellings are tried.
    static func parent(of tag: LanguageTag) -> LanguageTag? {
        var keys: [String] = []
        if let script = tag.script, let region = tag.region { keys.append("\(tag.language)_\(script)_\(region)") }
        if let region = tag.region { keys.append("\(tag.language)_\(region)") }
        if tag.region == nil, tag.script == nil { keys.append(tag.language) }
        guard let name = keys.lazy.compactMap({ table[$0] }).first, name != "root" else { return nil }
        let parts = name.split(separator: "_").map(String.init)
        switch parts.count {
        case 1: return LanguageTag(language: parts[0])
        case 2 where parts[1].count == 4: return LanguageTag(language: parts[0], script: parts[1])
        case 2: return LanguageTag(language: parts[0], region: parts[1])
        case 3: return LanguageTag(language: parts[0], script: parts[1], region: parts[2])
        default: return nil
        }
    }
}
