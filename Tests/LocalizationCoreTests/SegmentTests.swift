import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Building one segment: what it holds, that it is the same bytes every time, that a set
/// replacing one (language, table) shares every other segment, and that a build without
/// memory is an error for that segment.
@Suite struct SegmentTests {
    static func plan(_ text: String, language: String = "fr") throws -> SegmentPlan {
        try SegmentPlan(
            language: language, table: "Localizable", pieces: [.strings(try StringsParser.parseTable(Array(text.utf8)))]
        )
    }

    @Test func laterPiecesAndDuplicatesWinByCanonicalEquivalence() throws {
        let strings = try StringsParser.parseTable(
            Array("\"Caf\u{E9}\" = \"one\"; \"a\" = \"1\"; \"Cafe\u{301}\" = \"two\"; \"b\" = \"2\";".utf8))
        let plural = PluralFormat(
            format: "%#@n@", variables: ["n": .init(valueType: "d", forms: [.one: "%d file", .other: "%d files"])])
        let entries = LocalizationTable(entries: ["b": TableEntry(value: "%d files", plural: plural)])
        let segment = try Segment(
            SegmentPlan(language: "en", table: "T", pieces: [.strings(strings), .table(entries)]))
        let reader = segment.reader
        #expect(reader.keyCount == 3)
        #expect(String(decoding: reader.languageBytes, as: UTF8.self) == "en")
        #expect(String(decoding: reader.tableBytes, as: UTF8.self) == "T")
        for spelling in ["Caf\u{E9}", "Cafe\u{301}"] {
            let number = try #require(try reader.entryNumber(of: spelling))
            #expect(String(decoding: try reader.value(of: number), as: UTF8.self) == "two")
        }
        let b = try #require(try reader.entryNumber(of: "b"))
        #expect(try reader.plural(of: b) == plural)
        #expect(try reader.entry(b).value == "%d files")
        #expect(try reader.entryNumber(of: "c") == nil)
        #expect(try reader.entryNumber(of: "Cafe") == nil)
    }

    @Test func theSamePiecesBuildTheSameBytes() throws {
        let first = try Segment(Self.plan("\"a\" = \"1\"; \"b\" = \"2\";"))
        let second = try Segment(Self.plan("\"a\" = \"1\"; \"b\" = \"2\";"))
        #expect(Array(first.bytes) == Array(second.bytes))
        #expect(first.bodyChecksum == second.bodyChecksum)
        let copy = try Segment(copying: first.bytes)
        #expect(Array(copy.bytes) == Array(first.bytes) && copy.language == "fr" && copy.table == "Localizable")
    }

    /// A String Catalog's entries reach a plan through dictionaries, whose order differs
    /// from one instance to the next: the same content read twice — written in any order —
    /// must give the same bytes, or an unchanged file read again is a change for every client.
    @Test func theSameCatalogBuildsTheSameBytes() throws {
        func catalog(reversed: Bool) -> [UInt8] {
            var keys = (0..<300).map { number in
                let localization =
                    number % 3 == 0
                    ? #""variations" : { "plural" : { "one" : { "stringUnit" : { "value" : "%lld file" } }, "#
                        + #""other" : { "stringUnit" : { "value" : "%lld files \#(number)" } } } }"#
                    : #""stringUnit" : { "state" : "translated", "value" : "v\#(number)" }"#
                return #""key\#(number)" : { "localizations" : { "de" : { \#(localization) } } }"#
            }
            if reversed { keys.reverse() }
            return Array(#"{ "sourceLanguage" : "en", "strings" : { \#(keys.joined(separator: ", ")) } }"#.utf8)
        }
        func bytes(_ json: [UInt8]) throws -> [UInt8] {
            let entries = try #require(try StringCatalogReader.parse(json).tables["de"])
            let plan = try SegmentPlan(
                language: "de", table: "Localizable", pieces: [.table(LocalizationTable(entries: entries))])
            let segment = try Segment(plan)
            return withExtendedLifetime(segment) { Array(segment.bytes) }
        }
        let first = try bytes(catalog(reversed: false))
        #expect(try first.withUnsafeBytes { try SegmentReader($0).keyCount } == 300)
        for reversed in [false, true, false] {
            #expect(try bytes(catalog(reversed: reversed)) == first)
        }
    }

    @Test func writesIntoAGivenBufferAndRefusesASmallOne() throws {
        let plan = try Self.plan("\"a\" = \"1\";")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: plan.byteCount + 4096, alignment: 8)
        defer { buffer.deallocate() }
        try plan.write(into: buffer)
        // A mapping is rounded up to pages: the reader reads the length the header states.
        let reader = try SegmentReader(UnsafeRawBufferPointer(buffer))
        #expect(reader.buffer.count == plan.byteCount)
        #expect(throws: SegmentError.bufferTooSmall(needed: plan.byteCount, available: 16)) {
            try plan.write(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<16]))
        }
    }

    @Test func aBuildWithoutMemoryFailsThatSegmentOnly() throws {
        let plan = try Self.plan("\"a\" = \"1\";")
        #expect(throws: SegmentError.outOfMemory(bytes: plan.byteCount)) { try Segment(plan, allocate: { _ in nil }) }
        #expect(try Segment(plan).reader.keyCount == 1)
    }

    @Test func replacingOneSegmentSharesEveryOther() throws {
        let (_, set) = try SegmentLookupTests.load([PackagePaths.exampleResources])
        let fr = try LanguageTag("fr")
        let before = set.allSegments
        let next = set.replacing(try Segment(Self.plan("\"多言語化\" = \"autre\";")), language: "fr", table: "Localizable")
        #expect(try next.lookup("多言語化", chain: next.chain([fr])).value == "autre")
        #expect(try set.lookup("多言語化", chain: set.chain([fr])).value != "autre")
        let kept = next.allSegments.filter { segment in before.contains { $0 === segment } }
        #expect(kept.count == before.count - 1)
        #expect(
            next.segment(language: "de", table: "Localizable") === set.segment(language: "de", table: "Localizable"))
        #expect(
            next.replacing(nil, language: "fr", table: "Localizable").segment(language: "fr", table: "Localizable")
                == nil)
    }
}
