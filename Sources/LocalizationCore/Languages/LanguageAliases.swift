/// Language codes that name another code's language (`iw` is `he`, `in` is `id`, `ji` is
/// `yi`, `sh` is `sr-Latn`), from CLDR's language aliases in the carried ``CLDRSnapshot``,
/// plus Apple's own.
///
/// Apple's ICU (`ualoc_localizationsToUse`, through `ualoc_normalize`) replaces these
/// codes in preferences and localizations alike before it compares them, so an `iw`
/// preference reads `he.lproj` and a `he` preference reads an old `iw.lproj`;
/// ``FallbackChain`` does the same.
///
/// ```swift
/// LanguageAliases.canonical(try LanguageTag("iw-IL"))?.identifier   // "he-IL"
/// ```
package enum LanguageAliases {
    /// Apple's aliases that CLDR does not have. `no` → `nb`: CLDR 44 made `no` the parent
    /// of `nb` and `nn` instead of an alias of `nb`, but Apple's ICU still reads `no_NO` as
    /// `nb_NO` (its `appleAliasMap`) and CoreFoundation reads `Norwegian.lproj` as `nb`:
    /// apps ship `nb.lproj`, and a `no` (or, through its CLDR parent, `nn`) user reads it.
    static let apple: [String: String] = ["no": "nb"]

    /// `alias` → `replacement` as CLDR writes them (`sh` → `sr_Latn`), Apple's added.
    static let table = CLDRSnapshot.pairs(CLDRSnapshot.languageAliases).merging(apple) { _, apple in apple }

    /// `tag` with its language code replaced by the current one, keeping the tag's own
    /// script and region over any the replacement brings (`sh-RS` → `sr-Latn-RS`,
    /// `cnr` → `sr-ME`); `nil` when the code is no alias.
    package static func canonical(_ tag: LanguageTag) -> LanguageTag? {
        guard !tag.isBase, let replacement = table[tag.language] else { return nil }
        let parts = replacement.split(separator: "_").map(String.init)
        let script = parts.dropFirst().first { $0.count == 4 }
        let region = parts.dropFirst().first { $0.count != 4 }
        return LanguageTag(
            language: parts[0], script: tag.script ?? script, region: tag.region ?? region, variants: tag.variants)
    }
}
