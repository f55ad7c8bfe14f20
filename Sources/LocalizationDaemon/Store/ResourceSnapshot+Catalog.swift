import LocalizationCore

extension ResourceSnapshot {
    /// The snapshot's segments as a ``ResourceCatalog``, made anew on each use: only the
    /// 2.0 compile behind `map` (``SharedTablesFile``) reads one, until `map` hands out the
    /// segments themselves. No lookup reads it, and the store keeps none.
    ///
    /// - Throws: ``SegmentError`` when a segment cannot be read.
    var catalog: ResourceCatalog {
        get throws {
            var catalog = ResourceCatalog(developmentLanguage: segments.developmentLanguage)
            for (name, byLanguage) in segments.segments {
                for (language, segment) in byLanguage {
                    var entries: [String: TableEntry] = [:]
                    entries.reserveCapacity(segment.reader.keyCount)
                    for number in 0..<segment.reader.keyCount {
                        let key = String(decoding: try segment.reader.key(of: number), as: UTF8.self)
                        entries[key] = try segment.reader.entry(number)
                    }
                    catalog.setTable(LocalizationTable(entries: entries), language: language, name: name)
                }
            }
            catalog.setSourceLanguages(segments.sourceLanguages)
            return catalog
        }
    }
}
