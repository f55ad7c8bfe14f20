import LocalizationCore
import Testing

@testable import Localization

/// The per-thread values of mapped lookups: each lookup answers as the compiled tables do,
/// a value looked up again is the `String` made the first time, and an emptied cache (a new
/// generation: the same record numbers, other values) makes them anew.
@Suite struct MappedValueCacheTests {
    /// Compiled tables of `strings` for `en`, and the place of `en` in `Localizable`.
    static func withPlace(_ strings: [String: String], _ body: (CompiledTables.Place) throws -> Void) throws {
        var catalog = ResourceCatalog(developmentLanguage: try LanguageTag("en"))
        catalog.setTable(LocalizationTable(strings: strings), language: "en", name: "Localizable")
        let bytes = try CompiledTablesWriter(catalog: catalog, languages: [try LanguageTag("en")], generation: 1).bytes
        try bytes.withUnsafeBytes { buffer in
            let tables = try CompiledTables(buffer)
            let en = try #require(tables.language("en"))
            let table = try #require(tables.table(nil))
            try body(try tables.place(language: en, table: table))
        }
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
                #expect(cache.value(key, in: place) == place.value(key))
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
        // Two generations whose one record has the same number and another value.
        try Self.withPlace(["k": "the value of the first generation"]) { place in
            #expect(cache.value("k", in: place) == "the value of the first generation")
        }
        cache.removeAll()
        try Self.withPlace(["k": "the value of the second generation"]) { place in
            #expect(cache.value("k", in: place) == "the value of the second generation")
        }
    }
}
