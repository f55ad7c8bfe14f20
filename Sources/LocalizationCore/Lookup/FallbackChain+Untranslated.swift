extension FallbackChain {
    /// The language asked for (the first preference), when the language that `served` a
    /// key is not one of its own spellings: the user saw a fallback's string, untranslated
    /// in their language. `nil` when the answer is in the language asked for, or when no
    /// answer counts as a fallback (``askedLanguageEnd`` is 0).
    ///
    /// ```swift
    /// let chain = catalog.chain([try LanguageTag("ja-JP")])
    /// chain.untranslatedLanguage(servedBy: try LanguageTag("ja"))   // nil: Japanese
    /// chain.untranslatedLanguage(servedBy: .base)                   // "ja-JP"
    /// ```
    package func untranslatedLanguage(servedBy served: LanguageTag) -> String? {
        // By tag, not identifier: this runs for every lookup the daemon answers.
        guard askedLanguageEnd > 0, !candidates[..<askedLanguageEnd].contains(served) else { return nil }
        return identifiers[0]
    }

    /// The language asked for (the first preference), unless it is the development
    /// language (``askedLanguageEnd`` is 0): an empty value served in it is untranslated there.
    package var askedForeignLanguage: String? { askedLanguageEnd > 0 ? identifiers[0] : nil }
}
