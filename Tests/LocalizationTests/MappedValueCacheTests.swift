import LocalizationCore
import Testing

@testable import Localization

/// The per-thread values of mapped lookups: each lookup answers as the segment does, a
/// value looked up again is the `String` made the first time, and an emptied cache (a new
/// segment: the same entry numbers, other values) makes them anew.
@Suite struct MappedValueCacheTests {
    /// A segment of `strings` for `en`, and its reader.
    static func withPlace(_ strings: [String: String], _ body: (SegmentReader) throws -> Void) throws {
        let segment = try Segment(
            SegmentPlan(language: "en", table: "Localizable", pieces: [.table(LocalizationTable(strings: strings))]))
        try withExtendedLifetime(segment) { try body(segment.reader) }
    }

    /// `key`'s value as the segment `reader` reads holds it.
    static func value(_ key: String, in reader: SegmentReader) throws -> String? {
        try reader.entryNumber(of: key).map { String(decoding: try reader.value(of: $0), as: UTF8.self) }
    }

    /// The address of `text`'s UTF-8 storage: the same for two copies of one `String`.
    static func storage(of text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func answersAsThePlaceAndReusesTheStringsItMade() throws {
        let strings = [
            "open": "ファイルを開く (a value too long to fit inline)", "Caf\u{E9}": "Coffee, long enough to be allocated",
        ]
        var cache = MappedValueCache()
        defer { cache.deallocate() }
        try Self.withPlace(strings) { place in
            for (key, value) in strings {
                #expect(cache.value(key, in: place) == value)
                let expected = try Self.value(key, in: place)
                #expect(cache.value(key, in: place) == expected)
            }
            #expect(cache.value("Cafe\u{301}", in: place) == strings["Caf\u{E9}"])
            #expect(cache.value("missing", in: place) == nil)
            let first = cache.value("open", in: place)
            let again = cache.value("open", in: place)
            #expect(Self.storage(of: first!) == Self.storage(of: again!), "the value was made twice")
        }
    }

    @Test func anEmptiedCacheMakesItsValuesAnew() throws {
        var cache = MappedValueCache()
        defer { cache.deallocate() }
        // Two segments whose one entry has the same number and another value.
        try Self.withPlace(["k": "the value of the first generation"]) { place in
            #expect(cache.value("k", in: place) == "the value of the first generation")
        }
        cache.removeAll()
        try Self.withPlace(["k": "the value of the second generation"]) { place in
            #expect(cache.value("k", in: place) == "the value of the second generation")
        }
    }
}
