extension ResourceCatalog {
    /// One answer of a resolved table: the entry a lookup finds and the language serving it.
    package struct ResolvedEntry {
        /// The entry, as ``lookup(_:in:chain:count:counts:)`` finds it.
        package var entry: TableEntry
        /// The language whose table (or pseudo-localization) served it.
        package var language: LanguageTag
    }

    /// Every key of `tableName` that `chain` answers, each with the entry and language
    /// ``lookup(_:in:chain:count:counts:)`` returns for it: what the compiled tables store.
    ///
    /// Walks the candidates from last to first, each overriding the ones after it, so the
    /// cost is one visit per entry rather than one lookup per key and candidate. Unlike
    /// ``resolvedTable(_:chain:)`` it follows the lookup exactly where the two could part:
    /// a pseudo-language derives only keys its own table lacks; a key-made source entry
    /// (``TableEntry/isSourceKeyStandIn``) answers as any other, as Xcode compiles it.
    package func resolvedEntries(_ tableName: String, chain: FallbackChain) -> [String: ResolvedEntry] {
        var result: [String: ResolvedEntry] = [:]
        let (languages, identifiers) = candidates(tableName, chain: chain)
        for (index, identifier) in identifiers.enumerated().reversed() {
            let language = languages[index]
            let own = tables[identifier]?[tableName]
            if let pseudo = PseudoLocalization(rawValue: identifier), let derived = developmentEntries(tableName) {
                derived.forEachEntry { key, entry in
                    guard own?[key] == nil else { return }
                    result[key] = ResolvedEntry(entry: pseudo.transform(entry), language: language)
                }
            }
            own?.forEachEntry { key, entry in
                result[key] = ResolvedEntry(entry: entry, language: language)
            }
        }
        return result
    }
}
