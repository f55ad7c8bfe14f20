extension SegmentSet {
    /// The one lookup over segments: the first language of `chain` (with `table`'s catalog
    /// source language before the development language) whose segment of `table`
    /// (`Localizable` when `nil` or empty) has `key` answers; `nil` when none does.
    ///
    /// The same answers as ``ResourceCatalog/lookup(_:in:chain:plural:)``: a catalog's
    /// key-made source entry (``TableEntry/isSourceKeyStandIn``) answers like any other, as
    /// Xcode compiles it (`key = key` in the source language); a pseudo-language (`en-XA`, `ar-XB`) whose own segment lacks the key
    /// serves the development language's entry (else `Base`'s), transformed. Keys match by
    /// canonical equivalence; the key is hashed once for every segment probed.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func answer(_ key: String, in table: String?, chain: FallbackChain) throws(SegmentError) -> SegmentAnswer? {
        try probe(table, chain: chain).answer(key)
    }

    /// ``answer(_:in:chain:)`` as a ``LookupResult``: the value with a plural entry's forms
    /// selected by `plural`, or the key itself, not found, when no language answers.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func lookup(
        _ key: String, in table: String? = nil, chain: FallbackChain, plural: PluralCounts = .none
    ) throws(SegmentError) -> LookupResult {
        try probe(table, chain: chain).lookup(key, plural: plural)
    }
}
