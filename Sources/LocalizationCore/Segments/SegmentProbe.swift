/// The segments one table's lookups along one chain probe, in order (``SegmentSet/probe(_:chain:)``):
/// the one lookup over segments, worked out once per table and chain. Each candidate
/// language (the chain's, with the table's catalog source language before the development
/// language) with its segment of the table, and the segment a pseudo-language derives from.
///
/// A run of lookups in one table and chain (a burst of binary frames, a client thread's
/// lookups) makes one and probes it per key, with no `String`, no allocation and no
/// reference counted per key. It holds its segments, so it answers from the set it was made
/// from for as long as it is kept.
package struct SegmentProbe: Sendable {
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
    /// The language a `Base` answer's plural rules follow.
    let developmentLanguage: LanguageTag
    /// The first candidate's segment when it is no pseudo-language: where most keys are
    /// found, probed first by a caller that keeps its answers (a client thread's values).
    package var first: Segment? { pseudo.first == .some(nil) ? segments.first ?? nil : nil }

    /// Where `key` (UTF-8 bytes) is found along the probe: the first candidate whose own
    /// segment has it, with its entry number, or a pseudo-language candidate whose
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

    /// The answer to `key` (UTF-8 bytes) along the probe (``find(_:)``): a segment's entry,
    /// or a pseudo-language's transformed entry of the segment it derives from; `nil` when
    /// none answers.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func answer(_ key: UnsafeRawBufferPointer) throws(SegmentError) -> SegmentAnswer? {
        guard let found = try find(key) else { return nil }
        let language = languages[found.candidate]
        guard found.derived, let pseudo = pseudo[found.candidate], let development else {
            return SegmentAnswer(language: language, source: .segment(segments[found.candidate]!, number: found.number))
        }
        return SegmentAnswer(
            language: language, source: .derived(pseudo.transform(try development.reader.entry(found.number))))
    }

    /// ``answer(_:)-(UnsafeRawBufferPointer)`` for `key`'s UTF-8 bytes.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func answer(_ key: String) throws(SegmentError) -> SegmentAnswer? {
        var key = key
        return try key.withUTF8 { utf8 in
            Result { () throws(SegmentError) in try answer(UnsafeRawBufferPointer(utf8)) }
        }.get()
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

extension SegmentSet {
    /// The probe of `table` (`Localizable` when `nil` or empty) along `chain`.
    package func probe(_ table: String?, chain: FallbackChain) -> SegmentProbe {
        let name = ResourceCatalog.tableName(table)
        let byLanguage = segments[name] ?? [:]
        let (languages, identifiers) = candidates(name, chain: chain)
        let own = identifiers.map { byLanguage[$0] }
        return SegmentProbe(
            languages: languages, segments: own, readers: own.map { $0?.reader },
            // By the precomputed identifier: a tag's own check costs more.
            pseudo: identifiers.map { PseudoLocalization(rawValue: $0) },
            development: byLanguage[developmentLanguage.identifier] ?? byLanguage[LanguageTag.base.identifier],
            developmentLanguage: developmentLanguage)
    }
}
