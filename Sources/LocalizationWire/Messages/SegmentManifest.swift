package import LocalizationCore

/// What a `map` reply says besides its descriptors (docs/PROTOCOL.md): the generation, what a
/// lookup needs besides the segments (the development language, each table's String Catalog
/// source language), each slab's size in descriptor order, and where every segment lies.
///
/// ```swift
/// let (manifest, slabs) = try SegmentManifest.describing(set, generation: 7)
/// reply(.fields(manifest.fields), slabs)          // the daemon
/// let again = try SegmentManifest(fields: fields)  // a client, then maps `again.slabSizes`
/// ```
package struct SegmentManifest: Sendable, Equatable {
    /// Where one segment lies: in which slab (its position among the reply's descriptors),
    /// at which offset, how long, and its body's CRC-32C as its header states it.
    package struct Entry: Sendable, Equatable {
        package var language: String
        package var table: String
        package var slab: Int
        package var offset: Int
        package var length: Int
        package var checksum: UInt32

        /// The entry.
        package init(language: String, table: String, slab: Int, offset: Int, length: Int, checksum: UInt32) {
            self.language = language
            self.table = table
            self.slab = slab
            self.offset = offset
            self.length = length
            self.checksum = checksum
        }
    }

    /// The most descriptors one message carries (Linux's `SCM_MAX_FD`): a set in more slabs
    /// cannot be mapped (compaction keeps a set in at most ``SegmentSet/maxSlabs``).
    package static let maxSlabs = 253

    package var generation: UInt64
    package var developmentLanguage: String
    /// Each table's String Catalog source language, by table name.
    package var sourceLanguages: [String: String]
    /// Each slab's size in bytes, in the order of the descriptors.
    package var slabSizes: [Int]
    package var entries: [Entry]

    /// The manifest of `set` served as `generation`, and its slabs in descriptor order.
    ///
    /// - Throws: ``WireError`` (`unavailable`) when a segment lies in private memory (a build
    ///   that got no memory file) or the set spans more than ``maxSlabs`` slabs: then it
    ///   cannot be mapped, and the client asks per lookup.
    package static func describing(_ set: SegmentSet, generation: UInt64) throws(WireError) -> (
        manifest: SegmentManifest, slabs: [SegmentSlab]
    ) {
        var slabs: [SegmentSlab] = []
        var numbers: [UInt64: Int] = [:]
        var entries: [Entry] = []
        for (table, byLanguage) in set.segments.sorted(by: { $0.key < $1.key }) {
            for (language, segment) in byLanguage.sorted(by: { $0.key < $1.key }) {
                guard segment.slab.isShareable else {
                    throw WireError(
                        code: .unavailable,
                        message: "\(language)/\(table) lies in private memory (no memory file could be had)")
                }
                let number =
                    numbers[segment.slab.serial]
                    ?? {
                        slabs.append(segment.slab)
                        numbers[segment.slab.serial] = slabs.count - 1
                        return slabs.count - 1
                    }()
                entries.append(
                    Entry(
                        language: language, table: table, slab: number, offset: segment.offset,
                        length: segment.bytes.count, checksum: segment.bodyChecksum))
            }
        }
        guard slabs.count <= maxSlabs else {
            throw WireError(
                code: .unavailable, message: "the segments lie in \(slabs.count) slabs; one reply carries \(maxSlabs)")
        }
        let manifest = SegmentManifest(
            generation: generation, developmentLanguage: set.developmentLanguage.identifier,
            sourceLanguages: set.sourceLanguages.mapValues(\.identifier), slabSizes: slabs.map(\.size),
            entries: entries)
        return (manifest, slabs)
    }

    /// A manifest of these parts.
    package init(
        generation: UInt64, developmentLanguage: String, sourceLanguages: [String: String], slabSizes: [Int],
        entries: [Entry]
    ) {
        self.generation = generation
        self.developmentLanguage = developmentLanguage
        self.sourceLanguages = sourceLanguages
        self.slabSizes = slabSizes
        self.entries = entries
    }

    /// The reply's fields: `generation`, `development_language`, `source_languages`,
    /// `slabs` (sizes) and `segments`, each `[language, table, slab, offset, length, checksum]`.
    package var fields: [String: WireValue] {
        [
            "generation": .integer(Int64(generation)),
            "development_language": .string(developmentLanguage),
            "source_languages": .object(sourceLanguages.mapValues(WireValue.string)),
            "slabs": .array(slabSizes.map { .integer(Int64($0)) }),
            "segments": .array(
                entries.map {
                    .array([
                        .string($0.language), .string($0.table), .integer(Int64($0.slab)),
                        .integer(Int64($0.offset)), .integer(Int64($0.length)), .integer(Int64($0.checksum)),
                    ])
                }),
        ]
    }

    /// The manifest a `map` reply's `fields` state.
    ///
    /// - Throws: ``WireError`` (`bad_request`) naming the first field that is missing or
    ///   out of range: a segment in a slab the reply has not, a negative offset.
    package init(fields: [String: WireValue]) throws(WireError) {
        func bad(_ what: String) -> WireError { WireError(code: .badRequest, message: "map reply: \(what)") }
        func count(_ value: WireValue?, _ what: String, max: Int64 = Int64(Int.max)) throws(WireError) -> Int {
            guard let integer = value?.integerValue, integer >= 0, integer <= max else { throw bad("bad \(what)") }
            return Int(integer)
        }
        guard let generation = fields["generation"]?.integerValue, generation >= 0 else { throw bad("no generation") }
        guard let development = fields["development_language"]?.stringValue else {
            throw bad("no development_language")
        }
        guard let sizes = fields["slabs"]?.arrayValue, sizes.count <= Self.maxSlabs else { throw bad("bad slabs") }
        guard let segments = fields["segments"]?.arrayValue else { throw bad("no segments") }
        var sources: [String: String] = [:]
        for (table, language) in fields["source_languages"]?.objectValue ?? [:] {
            guard let language = language.stringValue else { throw bad("bad source language of \(table)") }
            sources[table] = language
        }
        var slabSizes: [Int] = []
        for size in sizes { slabSizes.append(try count(size, "slab size")) }
        var entries: [Entry] = []
        entries.reserveCapacity(segments.count)
        for segment in segments {
            guard let parts = segment.arrayValue, parts.count == 6, let language = parts[0].stringValue,
                let table = parts[1].stringValue
            else { throw bad("bad segment \(segment)") }
            let entry = Entry(
                language: language, table: table, slab: try count(parts[2], "slab number"),
                offset: try count(parts[3], "offset"), length: try count(parts[4], "length"),
                checksum: UInt32(try count(parts[5], "checksum", max: Int64(UInt32.max))))
            guard entry.slab < slabSizes.count, entry.offset <= slabSizes[entry.slab],
                entry.length <= slabSizes[entry.slab] - entry.offset
            else { throw bad("\(language)/\(table) lies outside its slab") }
            entries.append(entry)
        }
        self.init(
            generation: UInt64(generation), developmentLanguage: development, sourceLanguages: sources,
            slabSizes: slabSizes, entries: entries)
    }

    /// The set this manifest describes, over `slabs` (the reply's descriptors mapped, in
    /// order): each segment opened where the manifest says, and checked to be the language,
    /// table and body checksum it names.
    ///
    /// The bodies' checksums are not computed (a pass over every byte, paid by the first
    /// lookup): the daemon wrote each slab a moment ago and its seals keep anyone from
    /// changing it, and every offset a lookup follows is bounds-checked all the same.
    ///
    /// - Throws: ``SegmentError`` for a segment that is not there as described.
    package func segmentSet(over slabs: [SegmentSlab]) throws(SegmentError) -> SegmentSet {
        guard slabs.count == slabSizes.count else {
            throw .outOfBounds("\(slabs.count) slabs mapped where the manifest names \(slabSizes.count)")
        }
        var segments: [Segment] = []
        segments.reserveCapacity(entries.count)
        for entry in entries {
            let segment = try Segment(
                in: slabs[entry.slab], offset: entry.offset, length: entry.length, verifyingChecksums: false)
            guard segment.language == entry.language, segment.table == entry.table,
                segment.bodyChecksum == entry.checksum
            else { throw .outOfBounds("the segment named \(entry.language)/\(entry.table)") }
            segments.append(segment)
        }
        guard let development = try? LanguageTag(developmentLanguage) else {
            throw .outOfBounds("the development language \(developmentLanguage)")
        }
        return SegmentSet(
            developmentLanguage: development, segments: segments,
            sourceLanguages: sourceLanguages.compactMapValues { try? LanguageTag($0) })
    }
}
