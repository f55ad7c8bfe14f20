import LocalizationCore
import Testing

@testable import Localization

/// The cached mode's invalidation rules, without a daemon.
@Suite struct ResolvedTableCacheTests {
    static func table(_ languages: [String], _ name: String, generation: UInt64 = 1, servedBy: [String: String] = [:])
        -> ResolvedTable
    {
        let chain = FallbackChain(
            preferred: languages.map { try! LanguageTag($0) }, developmentLanguage: LanguageTag(language: "en"))
        return ResolvedTable(
            key: ResolvedTable.Key(languages: languages, table: name), entries: ["k": "v"], servedBy: servedBy,
            generation: generation, chain: chain.identifiers)
    }

    @Test func anEventDropsExactlyTheTablesItCanAffect() {
        let cache = ResolvedTableCache()
        let tables = [
            Self.table(["ja"], "Localizable"), Self.table(["ja"], "Settings"), Self.table(["fr"], "Localizable"),
            Self.table(["zh-Hant-TW"], "Localizable"), Self.table(["de"], "Localizable", servedBy: ["k": "pt"]),
        ]
        for table in tables { cache.store(table, fetchedOnConnection: cache.connectionNumber) }
        cache.invalidate([LocalizationChange.Table(language: "ja", table: "Localizable")], generation: 2)
        #expect(cache.table(for: tables[0].key) == nil)
        #expect(cache.table(for: tables[1].key) != nil, "another table of ja")
        #expect(cache.table(for: tables[2].key) != nil, "another language")
        cache.invalidate([LocalizationChange.Table(language: "zh-Hant", table: "Localizable")], generation: 3)
        #expect(cache.table(for: tables[3].key) == nil, "zh-Hant is in zh-Hant-TW's chain")
        cache.invalidate([LocalizationChange.Table(language: "Base", table: "Settings")], generation: 4)
        #expect(cache.table(for: tables[1].key) == nil, "every chain ends in Base")
        cache.invalidate([LocalizationChange.Table(language: "pt", table: "Localizable")], generation: 5)
        #expect(cache.table(for: tables[4].key) == nil, "pt served a key of the de table")
        #expect(cache.table(for: tables[2].key) != nil)
        cache.invalidate([LocalizationChange.Table(language: "en", table: "Localizable")], generation: 6)
        #expect(cache.table(for: tables[2].key) == nil, "the development language is in every chain")
    }

    @Test func aTableOlderThanTheLastEventIsNotKept() {
        let cache = ResolvedTableCache()
        cache.invalidate([], generation: 5)
        #expect(
            !cache.store(Self.table(["ja"], "Localizable", generation: 4), fetchedOnConnection: cache.connectionNumber))
        #expect(
            cache.store(Self.table(["ja"], "Localizable", generation: 5), fetchedOnConnection: cache.connectionNumber))
        let before = cache.connectionNumber
        cache.reset()
        #expect(
            !cache.store(Self.table(["ja"], "Localizable", generation: 9), fetchedOnConnection: before),
            "from the old connection")
        #expect(cache.table(for: ResolvedTable.Key(languages: ["ja"], table: "Localizable")) == nil)
    }

    @Test func aNewConnectionKeepsTheEarlierTablesAsLastKnownOnly() {
        let cache = ResolvedTableCache()
        let japanese = Self.table(["ja"], "Localizable")
        let french = Self.table(["fr"], "Localizable")
        cache.store(japanese, fetchedOnConnection: cache.connectionNumber)
        cache.store(french, fetchedOnConnection: cache.connectionNumber)
        cache.reset()
        #expect(cache.table(for: japanese.key) == nil, "not served as the new daemon's answer")
        #expect(cache.lastKnown(for: japanese.key) === japanese)
        let newer = Self.table(["ja"], "Localizable", generation: 1)
        cache.store(newer, fetchedOnConnection: cache.connectionNumber)
        #expect(cache.lastKnown(for: japanese.key) === newer, "the new connection's table comes first")
        cache.reset()
        cache.reset()
        #expect(cache.lastKnown(for: japanese.key) === newer, "kept over connections that fetched nothing")
        #expect(cache.lastKnown(for: french.key) === french)
        cache.invalidate([LocalizationChange.Table(language: "fr", table: "Localizable")], generation: 2)
        #expect(cache.lastKnown(for: french.key) == nil, "an event drops the earlier tables it can affect")
        #expect(cache.lastKnown(for: japanese.key) === newer)
    }

    @Test func anEventKeepsTheTablesItTakesOutAsLastKnownUntilTheirRefetch() {
        let cache = ResolvedTableCache()
        let old = Self.table(["ja"], "Localizable")
        cache.store(old, fetchedOnConnection: cache.connectionNumber)
        cache.invalidate([LocalizationChange.Table(language: "ja", table: "Localizable")], generation: 2)
        #expect(cache.table(for: old.key) == nil, "not served as the daemon's answer")
        #expect(cache.lastKnown(for: old.key) === old, "the previous value, while the refetch is late")
        let fresh = Self.table(["ja"], "Localizable", generation: 2)
        cache.store(fresh, fetchedOnConnection: cache.connectionNumber)
        #expect(cache.table(for: old.key) === fresh)
        cache.invalidate([LocalizationChange.Table(language: "ja", table: "Localizable")], generation: 3)
        #expect(cache.lastKnown(for: old.key) === fresh)
        cache.reset()
        #expect(cache.lastKnown(for: old.key) === fresh, "kept over a new connection")
        cache.drop { $0 == old.key }
        #expect(cache.lastKnown(for: old.key) == nil, "a mapped generation answers it now")
    }

    @Test func oneFetchPerTableIsInFlight() {
        let cache = ResolvedTableCache()
        let table = Self.table(["ja"], "Localizable")
        let (first, isNew) = cache.fetch(for: table.key)
        let (second, again) = cache.fetch(for: table.key)
        #expect(isNew && !again && first === second, "lookups wait for the fetch in flight")
        let (other, isOtherNew) = cache.fetch(for: Self.table(["fr"], "Localizable").key)
        #expect(isOtherNew, "another table has its own")
        cache.endFetch(other, for: Self.table(["fr"], "Localizable").key, with: nil)
        #expect(other.wait(until: 0) == nil)
        cache.endFetch(first, for: table.key, with: table)
        #expect(first.wait(until: 0) === table)
        let (next, isNextNew) = cache.fetch(for: table.key)
        #expect(isNextNew && next !== first, "asked again once it ended")
        cache.endFetch(next, for: table.key, with: nil)
    }
}
