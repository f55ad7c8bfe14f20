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
        guard segments[ResourceCatalog.tableName(table)] != nil else { return nil }
        let probe = probe(table, chain: chain)
        var key = key
        return try key.withUTF8 { utf8 in
            Result { () throws(SegmentError) in try Self.answer(UnsafeRawBufferPointer(utf8), probing: probe) }
        }.get()
    }

    /// ``answer(_:in:chain:)`` as a ``LookupResult``: the value with a plural entry's forms
    /// selected by `plural`, or the key itself, not found, when no language answers.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func lookup(
        _ key: String, in table: String? = nil, chain: FallbackChain, plural: PluralCounts = .none
    ) throws(SegmentError) -> LookupResult {
        guard let answer = try answer(key, in: table, chain: chain) else { return .missing(key) }
        return try result(of: answer, plural: plural)
    }

    /// ``lookup(_:in:chain:plural:)`` along a probe made once for many keys (a batch).
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func lookup(_ key: String, probing probe: Probe, plural: PluralCounts = .none) throws(SegmentError)
        -> LookupResult
    {
        var bytes = key
        let found = try bytes.withUTF8 { utf8 in
            Result { () throws(SegmentError) in try Self.answer(UnsafeRawBufferPointer(utf8), probing: probe) }
        }.get()
        guard let found else { return .missing(key) }
        return try result(of: found, plural: plural)
    }

    /// `answer` as a ``LookupResult``, a plural entry's forms selected by `plural`.
    private func result(of answer: SegmentAnswer, plural: PluralCounts) throws(SegmentError) -> LookupResult {
        let entry = try answer.entry()
        let value = entry.value(
            for: plural, rules: .cldr(for: answer.language.isBase ? developmentLanguage : answer.language))
        return LookupResult(value: value, found: true, language: answer.language, entry: entry)
    }
}
