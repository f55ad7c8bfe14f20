extension SegmentSet {
    /// What lookups of one table along one chain probe, worked out once: each candidate
    /// language (the chain's, with the table's catalog source language before the
    /// development language) with its segment of the table, and the segment a
    /// pseudo-language derives from. A run of lookups in one table and chain (a burst of
    /// binary frames) makes one and probes it per key, with no `String`, no allocation and
    /// no reference counted per key.
    package struct Probe: Sendable {
        /// The candidate languages, in order.
        package let languages: [LanguageTag]
        /// Each candidate's own segment of the table, if it has one: kept alive here, read
        /// through `readers`.
        let segments: [Segment?]
        /// The readers of `segments`, by candidate: plain values, read with no retain.
        package let readers: [SegmentReader?]
        /// Each candidate that is a pseudo-language (`en-XA`, `ar-XB`).
        let pseudo: [PseudoLocalization?]
        /// What a pseudo-language derives from: the development language's segment of the
        /// table, else `Base`'s.
        let development: Segment?

        /// Where `key` (UTF-8 bytes) is found along the probe: the first candidate whose
        /// own segment has it, with its entry number, or a pseudo-language candidate whose
        /// development segment has it (`derived`); `nil` when none has it. The key is hashed
        /// once for every segment probed.
        ///
        /// - Throws: ``SegmentError`` when a segment on the way is damaged.
        @inline(__always)
        package func find(_ key: UnsafeRawBufferPointer) throws(SegmentError) -> (
            candidate: Int, number: Int, derived: Bool
        )? {
            let hashed = CompiledKeyHash.hash(key)
            for index in readers.indices {
                if let own = readers[index], let number = try own.entryNumber(of: key, hashed: hashed) {
                    return (index, number, false)
                }
                guard pseudo[index] != nil, let development,
                    let number = try development.reader.entryNumber(of: key, hashed: hashed)
                else { continue }
                return (index, number, true)
            }
            return nil
        }
    }

    /// The probe of `table` (`Localizable` when `nil` or empty) along `chain`.
    package func probe(_ table: String?, chain: FallbackChain) -> Probe {
        let name = ResourceCatalog.tableName(table)
        let byLanguage = segments[name] ?? [:]
        let (languages, identifiers) = candidates(name, chain: chain)
        let own = identifiers.map { byLanguage[$0] }
        return Probe(
            languages: languages, segments: own, readers: own.map { $0?.reader },
            // By the precomputed identifier: a tag's own check costs more.
            pseudo: identifiers.map { PseudoLocalization(rawValue: $0) },
            development: byLanguage[developmentLanguage.identifier] ?? byLanguage[LanguageTag.base.identifier])
    }

    /// The answer to `key` (UTF-8 bytes) along `probe` (``Probe/find(_:)``): a segment's
    /// entry, or a pseudo-language's transformed entry of the segment it derives from;
    /// `nil` when none answers.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package static func answer(_ key: UnsafeRawBufferPointer, probing probe: Probe) throws(SegmentError)
        -> SegmentAnswer?
    {
        guard let found = try probe.find(key) else { return nil }
        let language = probe.languages[found.candidate]
        guard found.derived, let pseudo = probe.pseudo[found.candidate], let development = probe.development else {
            return SegmentAnswer(
                language: language, source: .segment(probe.segments[found.candidate]!, number: found.number))
        }
        return SegmentAnswer(
            language: language, source: .derived(pseudo.transform(try development.reader.entry(found.number))))
    }
}
