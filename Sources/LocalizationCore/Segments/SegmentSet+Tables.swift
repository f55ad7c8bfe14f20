extension SegmentSet {
    /// The number of (language, table) segments.
    package var tableCount: Int {
        segments.values.reduce(0) { $0 + $1.count }
    }

    /// The number of entries in every segment together, as ``ResourceCatalog/keyCount``
    /// counts them.
    package var keyCount: Int {
        segments.values.reduce(0) { sum, byLanguage in sum + byLanguage.values.reduce(0) { $0 + $1.reader.keyCount } }
    }

    /// The names of the tables `language` has a segment of, sorted.
    package func tableNames(of language: LanguageTag) -> [String] {
        segments.compactMap { name, byLanguage in byLanguage[language.identifier] == nil ? nil : name }.sorted()
    }

    /// The whole table as `chain` resolves it: every key any language of the chain has,
    /// each with the value and language the chain picks, as
    /// ``ResourceCatalog/resolvedTable(_:chain:)`` resolves it.
    ///
    /// - Throws: ``SegmentError`` when a segment on the way is damaged.
    package func resolvedTable(_ table: String? = nil, chain: FallbackChain) throws(SegmentError) -> [String:
        LookupResult]
    {
        let probe = probe(table, chain: chain)
        var result: [String: LookupResult] = [:]
        // Lowest precedence first: a key a better language has replaces it.
        for index in probe.languages.indices.reversed() {
            let language = probe.languages[index]
            if let pseudo = probe.pseudo[index], let development = probe.development {
                try Self.forEachEntry(of: development) { key, entry in
                    let transformed = pseudo.transform(entry)
                    result[key] = LookupResult(
                        value: transformed.value, found: true, language: language, entry: transformed)
                }
            }
            if let own = probe.segments[index] {
                try Self.forEachEntry(of: own) { key, entry in
                    result[key] = LookupResult(value: entry.value, found: true, language: language, entry: entry)
                }
            }
        }
        return result
    }

    /// Calls `body` with each key and entry of `segment`.
    private static func forEachEntry(of segment: Segment, _ body: (String, TableEntry) -> Void) throws(SegmentError) {
        for number in 0..<segment.reader.keyCount {
            body(String(decoding: try segment.reader.key(of: number), as: UTF8.self), try segment.reader.entry(number))
        }
    }
}
