import Glibc
import LocalizationCore
import LocalizationSockets
import Testing

/// Slabs: a build's segments share one sealed memory file a client can map as it is; a
/// build that gets no memory file falls back without trapping; a set whose segments spread
/// over too many slabs, or over slabs mostly freed, is gathered into one.
@Suite struct SegmentSlabTests {
    static func plan(_ language: String, _ table: String = "Localizable", keys: Int = 3) throws -> SegmentPlan {
        let text = (0..<keys).map { "\"k\($0)\" = \"\(language) \(table) \($0)\";" }.joined(separator: " ")
        return try SegmentPlan(
            language: language, table: table, pieces: [.strings(try StringsParser.parseTable(Array(text.utf8)))])
    }

    static func value(_ set: SegmentSet, _ key: String, _ language: String, _ table: String = "Localizable") throws
        -> String?
    {
        let result = try set.lookup(key, in: table, chain: set.chain([try LanguageTag(language)]))
        return result.found ? result.value : nil
    }

    /// A set of `languages`' Localizable segments, each language built by a build of its own.
    static func setBuiltOneByOne(_ languages: [String]) throws -> SegmentSet {
        var set = SegmentSet(developmentLanguage: try LanguageTag("en"))
        for language in languages {
            let segment = try Segment.build([try plan(language)])[0].get()
            set = set.replacing(segment, language: language, table: "Localizable")
        }
        return set
    }

    @Test func aBuildSharesOneSealedSlabAtAlignedOffsets() throws {
        let plans = try ["de", "en", "fr"].map { try Self.plan($0, keys: 5) }
        let segments = try Segment.build(plans).map { try $0.get() }
        let slab = segments[0].slab
        #expect(segments.allSatisfy { $0.slab === slab })
        #expect(slab.isShareable)
        #expect(
            segments.map(\.offset)
                == [0, 1, 2].map { index in
                    plans[..<index].reduce(0) { $0 + ($1.byteCount + 7) / 8 * 8 }
                })
        #expect(segments.allSatisfy { $0.offset % 8 == 0 })
        // What a client does with the descriptor: check the seals and size, map, read.
        let received = FileDescriptor(adopting: dup(slab.descriptor))
        let mapping = try SealedMemoryMapping(verifying: received, size: slab.size)
        let client = SegmentSlab(mapping: mapping)
        let copy = try Segment(
            in: client, offset: segments[2].offset, length: segments[2].bytes.count, verifyingChecksums: true)
        #expect(copy.language == "fr")
        let number = try #require(try copy.reader.entryNumber(of: "k4"))
        #expect(String(decoding: try copy.reader.value(of: number), as: UTF8.self) == "fr Localizable 4")
        // A segment's bounds are checked against its slab.
        #expect(throws: SegmentError.self) {
            try Segment(in: client, offset: slab.size - 8, length: 96, verifyingChecksums: false)
        }
    }

    @Test func noMemoryFileFallsBackPerPlanAndNoMemoryFailsOnlyThatPlan() throws {
        struct NoFile: Error {}
        let plans = try ["de", "fr"].map { try Self.plan($0) }
        var asked: [Int] = []
        let built = Segment.build(plans) { size, _ in
            asked.append(size)
            throw NoFile()
        }
        // The batch's slab, then one per plan; then private buffers, which answer alike.
        #expect(asked.count == 3)
        let segments = try built.map { try $0.get() }
        #expect(segments.allSatisfy { !$0.slab.isShareable } && segments[0].slab !== segments[1].slab)
        #expect(segments.map(\.language) == ["de", "fr"])
        #expect(throws: SegmentError.outOfMemory(bytes: plans[0].byteCount)) {
            try Segment(plans[0]) { _ in nil }
        }
    }

    @Test func tooManySlabsAreGatheredIntoOne() throws {
        let tags = (0..<24).map { "q\(Character(UnicodeScalar(UInt8(97 + $0))))" }
        let set = try Self.setBuiltOneByOne(tags)
        #expect(set.slabs.count == 24)
        let compacted = set.compacted()
        #expect(compacted.slabs.count <= SegmentSet.maxSlabs)
        #expect(compacted.slabs.allSatisfy { $0.slab.isShareable })
        for tag in tags { #expect(try Self.value(compacted, "k1", tag) == "\(tag) Localizable 1") }
        // Gathered already: nothing more moves.
        let again = compacted.compacted()
        #expect(
            Set(again.allSegments.map { ObjectIdentifier($0) })
                == Set(compacted.allSegments.map { ObjectIdentifier($0) }))
    }

    @Test func aSlabMostlyReplacedIsGathered() throws {
        let plans = try ["de", "fr", "it", "ja"].map { try Self.plan($0, keys: 50) }
        var set = SegmentSet(developmentLanguage: try LanguageTag("en"))
        for segment in try Segment.build(plans).map({ try $0.get() }) {
            set = set.replacing(segment, language: segment.language, table: "Localizable")
        }
        let first = try #require(set.segment(language: "de", table: "Localizable")).slab
        // Three of four replaced, one by one: the first slab holds one live segment of four.
        for language in ["fr", "it", "ja"] {
            let segment = try Segment.build([try Self.plan(language, keys: 51)])[0].get()
            set = set.replacing(segment, language: language, table: "Localizable")
        }
        #expect(set.slabs.contains { $0.slab === first })
        let compacted = set.compacted()
        #expect(!compacted.slabs.contains { $0.slab === first })
        #expect(try Self.value(compacted, "k49", "de") == "de Localizable 49")
        #expect(try Self.value(compacted, "k50", "ja") == "ja Localizable 50")
        // A half-used slab stays as it is.
        let kept = try #require(compacted.segment(language: "fr", table: "Localizable"))
        #expect(kept === set.segment(language: "fr", table: "Localizable"))
    }

    @Test func rebuildsOneTableAtATimeKeepTheSlabsBounded() throws {
        let tags = (0..<30).map { index in
            "q\(Character(UnicodeScalar(UInt8(97 + index % 26))))\(index < 26 ? "" : "-US")"
        }
        let files = try tags.map { tag in
            (
                tag,
                ResourceFile(
                    path: "/r/\(tag).lproj/Localizable.strings", kind: .strings, language: try LanguageTag(tag),
                    table: "Localizable")
            )
        }
        func sources(_ round: Int) throws -> [(file: ResourceFile, content: SegmentSource)] {
            try files.map { tag, file in
                let text = "\"k\" = \"\(tag) \(round)\";"
                return (file, try SegmentSource.read(Array(text.utf8), kind: .strings, file: file.path).content)
            }
        }
        var (set, failures) = SegmentSet.build(developmentLanguage: try LanguageTag("en"), sources: try sources(0))
        #expect(failures.isEmpty)
        #expect(set.slabs.count == 1)
        for round in 1...60 {
            let tag = files[round % files.count]
            let next = set.rebuilding(
                [SegmentKey(language: tag.0, table: "Localizable")], from: try sources(round))
            set = next.set
            #expect(set.slabs.count <= SegmentSet.maxSlabs)
            #expect(try Self.value(set, "k", tag.0) == "\(tag.0) \(round)")
        }
    }
}
