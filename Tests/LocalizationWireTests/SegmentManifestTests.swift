import LocalizationCore
import LocalizationWire
import Testing

/// The `map` reply's manifest: what the daemon writes a client reads back whole, a set that
/// cannot be mapped (more slabs than one message carries, a segment in private memory) is
/// `unavailable`, and a manifest that points outside its slabs is refused.
@Suite struct SegmentManifestTests {
    static func plan(_ language: String, _ table: String = "Localizable") throws -> SegmentPlan {
        let text = "\"k\" = \"\(language) \(table)\";"
        return try SegmentPlan(
            language: language, table: table, pieces: [.strings(try StringsParser.parseTable(Array(text.utf8)))])
    }

    @Test func aManifestReadsBackAndOpensTheSameSegments() throws {
        let plans = try [Self.plan("de"), Self.plan("fr"), Self.plan("fr", "Settings")]
        var set = SegmentSet(developmentLanguage: try LanguageTag("en"))
        for segment in try Segment.build(plans).map({ try $0.get() }) {
            set = set.replacing(segment, language: segment.language, table: segment.table)
        }
        set = set.replacingSourceLanguages(["Settings": try LanguageTag("fr")])
        let (manifest, slabs) = try SegmentManifest.describing(set, generation: 9)
        #expect(slabs.count == 1 && manifest.slabSizes == [slabs[0].size])
        let read = try SegmentManifest(fields: manifest.fields)
        #expect(read == manifest)
        #expect(read.sourceLanguages == ["Settings": "fr"] && read.generation == 9)
        let opened = try read.segmentSet(over: slabs)
        let value = try opened.lookup("k", in: "Settings", chain: opened.chain([try LanguageTag("de")]))
        #expect(value.value == "fr Settings" && value.language?.identifier == "fr")
    }

    @Test func moreSlabsThanOneMessageCarriesAreUnavailable() throws {
        var set = SegmentSet(developmentLanguage: try LanguageTag("en"))
        // A slab per segment, never gathered: 254 of them.
        for index in 0..<254 {
            let table = "T\(index)"
            let segment = try Segment.build([try Self.plan("de", table)])[0].get()
            set = set.replacing(segment, language: "de", table: table)
        }
        let error = try #require(throws: WireError.self) { try SegmentManifest.describing(set, generation: 1) }
        #expect(error.code == .unavailable && error.message.contains("254 slabs"))
        // What the daemon's rebuilds do before any `map`: gathered, it fits.
        let (manifest, slabs) = try SegmentManifest.describing(set.compacted(), generation: 1)
        #expect(slabs.count <= SegmentSet.maxSlabs && manifest.entries.count == 254)
    }

    @Test func aSegmentInPrivateMemoryIsUnavailable() throws {
        let set = SegmentSet(developmentLanguage: try LanguageTag("en")).replacing(
            try Segment(try Self.plan("de")), language: "de", table: "Localizable")
        let error = try #require(throws: WireError.self) { try SegmentManifest.describing(set, generation: 1) }
        #expect(error.code == .unavailable && error.message.contains("de/Localizable"))
    }

    @Test func aSegmentOutsideItsSlabIsRefused() throws {
        var fields = SegmentManifest(
            generation: 1, developmentLanguage: "en", sourceLanguages: [:], slabSizes: [4096],
            entries: [.init(language: "de", table: "Localizable", slab: 0, offset: 4000, length: 200, checksum: 0)]
        ).fields
        #expect(throws: WireError.self) { try SegmentManifest(fields: fields) }
        fields["slabs"] = .array([])
        #expect(throws: WireError.self) { try SegmentManifest(fields: fields) }
    }
}
