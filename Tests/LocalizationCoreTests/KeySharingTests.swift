import LocalizationCore
import TestSupport
import Testing

@Suite struct KeySharingTests {
    /// Keys over 15 UTF-8 bytes, so each is a heap allocation of its own.
    static let keys = (0..<40).map { "settings.screen.label\($0)" }

    static func strings(_ pairs: [(String, String)]) -> [UInt8] {
        Array(pairs.map { "\"\($0.0)\" = \"\($0.1)\";\n" }.joined().utf8)
    }

    static func parse(_ bytes: [UInt8], sharing: inout KeySharing) throws -> LocalizationTable {
        guard case .table(let table) = try sharing.parse(bytes, kind: .strings, table: "Localizable") else {
            throw ResourceParseError(location: SourceLocation(file: nil, line: 1, column: 1), message: "no table")
        }
        return table
    }

    /// Where `table` stores the bytes of its key equal to `key`.
    static func storage(of key: String, in table: LocalizationTable) -> UnsafeRawPointer? {
        storageAddress(of: key, among: table.entries.keys)
    }

    @Test func tablesOfOneNameShareTheirKeys() throws {
        var sharing = KeySharing()
        let english = try Self.parse(Self.strings(Self.keys.map { ($0, "en " + $0) }), sharing: &sharing)
        let japanese = try Self.parse(Self.strings(Self.keys.map { ($0, "ja " + $0) }), sharing: &sharing)
        for key in Self.keys {
            let stored = Self.storage(of: key, in: english)
            #expect(stored != nil)
            #expect(Self.storage(of: key, in: japanese) == stored)
            #expect(japanese[key]?.value == "ja " + key)
        }
    }

    @Test func sharingKeepsWhatEachFileSays() throws {
        var sharing = KeySharing()
        _ = try Self.parse(Self.strings(Self.keys.map { ($0, "en") }), sharing: &sharing)
        // Another order, a key missing, one of its own, and a duplicate (the last one wins).
        var pairs = Self.keys.dropFirst().reversed().map { ($0, "de " + $0) }
        pairs += [("only.in.german.table", "nur"), (Self.keys[5], "zuletzt")]
        let bytes = Self.strings(pairs)
        let shared = try Self.parse(bytes, sharing: &sharing)
        let plain = try ParsedResource.parse(bytes, kind: .strings)
        #expect(ParsedResource.table(shared) == plain)
        #expect(shared.count == Self.keys.count)
        #expect(shared[Self.keys[0]] == nil)
        #expect(shared[Self.keys[5]]?.value == "zuletzt")
        #expect(shared["only.in.german.table"]?.value == "nur")
    }

    @Test func aSmallTableLoadedFirstDoesNotKeepTheOthersFromSharing() throws {
        var sharing = KeySharing()
        _ = try Self.parse(Self.strings([(Self.keys[0], "a")]), sharing: &sharing)
        let first = try Self.parse(Self.strings(Self.keys.map { ($0, "1") }), sharing: &sharing)
        let second = try Self.parse(Self.strings(Self.keys.map { ($0, "2") }), sharing: &sharing)
        for key in Self.keys.dropFirst() {
            #expect(Self.storage(of: key, in: second) == Self.storage(of: key, in: first))
        }
    }

    @Test func aLoadedCatalogLendsItsKeys() throws {
        var first = KeySharing()
        let english = try Self.parse(Self.strings(Self.keys.map { ($0, "en") }), sharing: &first)
        let catalog = ResourceCatalog(
            developmentLanguage: LanguageTag(language: "en"), tables: ["en": ["Localizable": english]])
        var later = KeySharing(catalog: catalog)
        let french = try Self.parse(Self.strings(Self.keys.map { ($0, "fr") }), sharing: &later)
        #expect(Self.storage(of: Self.keys[3], in: french) == Self.storage(of: Self.keys[3], in: english))
    }

    @Test func otherFormatsAndOtherTablesAreLeftAlone() throws {
        var sharing = KeySharing()
        let english = try Self.parse(Self.strings(Self.keys.map { ($0, "en") }), sharing: &sharing)
        guard
            case .table(let other) = try sharing.parse(
                Self.strings([(Self.keys[1], "x")]), kind: .strings, table: "Other")
        else { throw ResourceParseError(location: SourceLocation(file: nil, line: 1, column: 1), message: "no table") }
        #expect(Self.storage(of: Self.keys[1], in: other) != Self.storage(of: Self.keys[1], in: english))
        let catalog = ParsedResource.catalog(
            StringCatalog(sourceLanguage: "en", tables: ["en": ["k": TableEntry(value: "v")]]))
        #expect(sharing.share(catalog, table: "Localizable") == catalog)
    }
}
