extension SegmentSet {
    /// What lookups of one table along one chain probe, worked out once: each candidate
    /// language (the chain's, with the table's catalog source language before the
    /// development language) with its segment of the table, and the segment a
    /// pseudo-language derives from. A run of lookups in one table and chain (a burst of
    /// binary frames) makes one and probes it per key, with no `String` and no allocation.
    package struct Probe: Sendable {
        /// The candidate languages, in order.
        package let languages: [LanguageTag]
        /// Each candidate's own segment of the table, if it has one.
        let segments: [Segment?]
        /// Each candidate that is a pseudo-language (`en-XA`, `ar-XB`).
        let pseudo: [PseudoLocalization?]
        /// What a pseudo-language derives from: the development language's segment of the
        /// table, else `Base`'s.
        let development: Segment?
    }

    /// The probe of `table` (`Localizable` when `nil` or empty) along `chain`.
    package func probe(_ table: String?, chain: FallbackChain) -> Probe {
        let name = ResourceCatalog.tableName(table)
        let byLanguage = segments[name] ?? [:]
        let (languages, identifiers) = candidates(name, chain: chain)
        return Probe(
            languages: languages, segments: identifiers.map { byLanguage[$0] },
            // By the precomputed identifier: a tag's own check costs more.
            pseudo: identifiers.map { PseudoLocalization(rawValue: $0) },
            development: byLanguage[developmentLanguage.identifier] ?? byLanguage[LanguageTag.base.identifier])
    }

    /// The answer to `key` (UTF-8 bytes) along `probe`: the first candidate whose segment
    /// has the key, or a pseudo-language's transformed entry of the segment it derives from;
    /// `nil` when none answers. The key is hashed once for every segment probed.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package static func answer(_ key: UnsafeRawBufferPointer, probing probe: Probe) throws(SegmentError)
        -> SegmentAnswer?
    {
        let hashed = CompiledKeyHash.hash(key)
        for index in probe.segments.indices {
            if let own = probe.segments[index], let number = try own.reader.entryNumber(of: key, hashed: hashed) {
                return SegmentAnswer(language: probe.languages[index], source: .segment(own, number: number))
            }
            guard let pseudo = probe.pseudo[index], let development = probe.development,
                let number = try development.reader.entryNumber(of: key, hashed: hashed)
            else { continue }
            let entry = pseudo.transform(try development.reader.entry(number))
            return SegmentAnswer(language: probe.languages[index], source: .derived(entry))
        }
        return nil
    }
}
