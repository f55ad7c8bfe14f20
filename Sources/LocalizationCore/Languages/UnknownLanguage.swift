/// A well-formed language tag whose language CLDR does not know (`jp`, `xx`): most often a
/// country code written for a language (`jp` for `ja`, `cn` for `zh`), which every lookup
/// would then fall back to without any folder ever matching it.
///
/// Known means CLDR's likely-subtags data has the language (about 8,000 of them), as
/// Apple's `Bundle` needs to match it; `Base`, the legacy lproj names and the private-use
/// languages `qaa`…`qtz` are known by definition.
///
/// ```swift
/// UnknownLanguage.check(try LanguageTag("jp"))?.description
/// // "'jp' is not a language CLDR knows (did you mean 'ja', the language of region JP?)"
/// ```
package struct UnknownLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The tag as given.
    package var tag: LanguageTag
    /// The language CLDR finds most likely in the region spelled like the tag's language
    /// (`ja` for `jp`), when there is such a region.
    package var suggestion: String?

    /// The problem with `tag`, or nil when its language is known.
    package static func check(_ tag: LanguageTag) -> UnknownLanguage? {
        let language = tag.language.lowercased()
        if tag.isBase || LikelySubtags.table[language] != nil { return nil }
        if language.count == 3, ("qaa"..."qtz").contains(language) { return nil }
        let region = "und_" + language.uppercased()
        let suggestion = LikelySubtags.table[region].flatMap { $0.split(separator: "_").first.map(String.init) }
        return UnknownLanguage(tag: tag, suggestion: suggestion)
    }

    /// `'jp' is not a language CLDR knows (did you mean 'ja', the language of region JP?)`.
    package var description: String {
        var text = "'\(tag.identifier)' is not a language CLDR knows"
        if let suggestion {
            text += " (did you mean '\(suggestion)', the language of region \(tag.language.uppercased())?)"
        }
        return text
    }
}
