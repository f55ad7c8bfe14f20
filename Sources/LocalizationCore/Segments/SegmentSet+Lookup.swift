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
        let name = ResourceCatalog.tableName(table)
        guard let byLanguage = segments[name] else { return nil }
        var key = key
        return try key.withUTF8 { utf8 in
            Result { () throws(SegmentError) in try answer(UnsafeRawBufferPointer(utf8), byLanguage, name, chain) }
        }.get()
    }

    /// ``answer(_:in:chain:)`` for `key`'s UTF-8 bytes among `table`'s segments.
    private func answer(
        _ bytes: UnsafeRawBufferPointer, _ byLanguage: [String: Segment], _ name: String, _ chain: FallbackChain
    ) throws(SegmentError) -> SegmentAnswer? {
        let hashed = CompiledKeyHash.hash(bytes)
        let (languages, identifiers) = candidates(name, chain: chain)
        for (index, identifier) in identifiers.enumerated() {
            let own = byLanguage[identifier]
            if let own, let number = try own.reader.entryNumber(of: bytes, hashed: hashed) {
                return SegmentAnswer(language: languages[index], source: .segment(own, number: number))
            }
            // By the precomputed identifier: this runs for every language a key is missing in.
            guard let pseudo = PseudoLocalization(rawValue: identifier),
                let development = byLanguage[developmentLanguage.identifier] ?? byLanguage[LanguageTag.base.identifier],
                let number = try development.reader.entryNumber(of: bytes, hashed: hashed)
            else { continue }
            let entry = pseudo.transform(try development.reader.entry(number))
            return SegmentAnswer(language: languages[index], source: .derived(entry))
        }
        return nil
    }

    /// ``answer(_:in:chain:)`` as a ``LookupResult``: the value with a plural entry's forms
    /// selected by `plural`, or the key itself, not found, when no language answers.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func lookup(
        _ key: String, in table: String? = nil, chain: FallbackChain, plural: PluralCounts = .none
    ) throws(SegmentError) -> LookupResult {
        guard let answer = try answer(key, in: table, chain: chain) else { return .missing(key) }
        let entry = try answer.entry()
        let value = entry.value(
            for: plural, rules: .cldr(for: answer.language.isBase ? developmentLanguage : answer.language))
        return LookupResult(value: value, found: true, language: answer.language, entry: entry)
    }
}
