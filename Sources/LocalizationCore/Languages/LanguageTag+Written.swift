/// Language tags an operator writes down once for good (a configuration's
/// `development_language`), read strictly: only the BCP 47 form is taken.
///
/// A lookup accepts every spelling a host or an `.lproj` name uses (`english`, `ja_JP`,
/// `ja_JP.UTF-8`), because it must answer whatever a process's locale says. A configuration
/// value is different: `development_language = english` read as `en`, or `ja_JP` as `ja-JP`,
/// would be a guess made silently on the operator's behalf, so it is refused with the form
/// to write instead.
extension LanguageTag {
    /// `text` as a language tag, when it is written as BCP 47 (`en`, `pt-BR`, `zh-Hant-TW`,
    /// in any letter case).
    ///
    /// - Throws: ``LanguageTagError`` for anything else, its reason naming the tag to write
    ///   when there is one (`english` → `en`, `ja_JP` → `ja-JP`).
    package static func written(_ text: String) throws(LanguageTagError) -> LanguageTag {
        let tag = try LanguageTag(text)
        if tag.isBase {
            throw LanguageTagError(
                input: text,
                reason: "Base is Xcode's base localization, not a language: write the language its strings are in (en)")
        }
        guard tag.identifier.lowercased() != text.lowercased() else { return tag }
        if legacyNames[text.lowercased()] != nil {
            throw LanguageTagError(
                input: text, reason: "it is the legacy .lproj name of \(tag.identifier): write \(tag.identifier)")
        }
        throw LanguageTagError(input: text, reason: "write \(tag.identifier)")
    }
}
