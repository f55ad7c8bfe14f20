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

    /// The segments a lookup in `table` (`Localizable` when `nil` or empty) along `chain`
    /// probes, in order: what ``answer(_:in:chain:)`` walks, kept by a caller that asks the
    /// same table along the same chain again and again (a client thread).
    package func probe(_ table: String?, chain: FallbackChain) -> SegmentProbe {
        let name = ResourceCatalog.tableName(table)
        let byLanguage = segments[name] ?? [:]
        let (languages, identifiers) = candidates(name, chain: chain)
        return SegmentProbe(
            languages: languages, identifiers: identifiers, byLanguage: byLanguage,
            development: byLanguage[developmentLanguage.identifier] ?? byLanguage[LanguageTag.base.identifier],
            developmentLanguage: developmentLanguage)
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

/// The segments one table's lookups along one chain probe, in order (``SegmentSet/probe(_:chain:)``):
/// the one lookup over segments. It holds its segments, so it answers from the set it was
/// made from for as long as it is kept.
package struct SegmentProbe: Sendable {
    /// The chain's languages, with the table's catalog source language before the development language.
    package let languages: [LanguageTag]
    /// Their identifiers, each looked up in ``byLanguage`` (and as a pseudo-language) as it is reached.
    let identifiers: [String]
    /// The table's segments by language identifier.
    let byLanguage: [String: Segment]
    /// The segment a pseudo-language's entries derive from: the development language's, else `Base`'s.
    let development: Segment?
    let developmentLanguage: LanguageTag
    /// The first language's segment when it is no pseudo-language: where most keys are
    /// found, probed first by a caller that keeps its answers (a client thread's values).
    package let first: Segment?

    init(
        languages: [LanguageTag], identifiers: [String], byLanguage: [String: Segment], development: Segment?,
        developmentLanguage: LanguageTag
    ) {
        self.languages = languages
        self.identifiers = identifiers
        self.byLanguage = byLanguage
        self.development = development
        self.developmentLanguage = developmentLanguage
        first = identifiers.first.flatMap { PseudoLocalization(rawValue: $0) == nil ? byLanguage[$0] : nil }
    }

    /// The first language of the chain whose segment has `key` answers (a pseudo-language
    /// whose own segment lacks it, with the development language's entry transformed);
    /// `nil` when none does. The key is hashed once for every segment probed.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func answer(_ key: String) throws(SegmentError) -> SegmentAnswer? {
        var key = key
        return try key.withUTF8 { utf8 in
            Result { () throws(SegmentError) in try answer(UnsafeRawBufferPointer(utf8)) }
        }.get()
    }

    /// ``answer(_:)`` for `key`'s UTF-8 bytes.
    package func answer(_ bytes: UnsafeRawBufferPointer) throws(SegmentError) -> SegmentAnswer? {
        let hashed = CompiledKeyHash.hash(bytes)
        for (index, identifier) in identifiers.enumerated() {
            let own = byLanguage[identifier]
            if let own, let number = try own.reader.entryNumber(of: bytes, hashed: hashed) {
                return SegmentAnswer(language: languages[index], source: .segment(own, number: number))
            }
            // By the precomputed identifier: this runs for every language a key is missing in.
            guard let pseudo = PseudoLocalization(rawValue: identifier), let development,
                let number = try development.reader.entryNumber(of: bytes, hashed: hashed)
            else { continue }
            let entry = pseudo.transform(try development.reader.entry(number))
            return SegmentAnswer(language: languages[index], source: .derived(entry))
        }
        return nil
    }

    /// ``answer(_:)`` as a ``LookupResult``: the value with a plural entry's forms selected
    /// by `plural`, or the key itself, not found, when no language answers.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func lookup(_ key: String, plural: PluralCounts = .none) throws(SegmentError) -> LookupResult {
        guard let answer = try answer(key) else { return .missing(key) }
        let entry = try answer.entry()
        let value = entry.value(
            for: plural, rules: .cldr(for: answer.language.isBase ? developmentLanguage : answer.language))
        return LookupResult(value: value, found: true, language: answer.language, entry: entry)
    }
}
