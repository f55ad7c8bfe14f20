import Testing

@testable import LocalizationCore

/// Tables loaded through ``KeySharing`` keep their plain values as UTF-8 in one buffer per
/// table (``IndexedValues``): what they hold, compare and overlay must not change.
@Suite struct PackedTableValuesTests {
    /// Values a `String` per entry held without trouble: NUL, non-ASCII, empty, long.
    static let pairs: [(String, String)] = [
        ("nul", "before\u{0}after"),
        ("japanese", "ファイルを開く"),
        ("emoji", "👩‍👩‍👧 family"),
        ("empty", ""),
        ("long", String(repeating: "a long value, ", count: 40)),
        ("short", "ok"),
        ("ключ", "значение"),
    ]

    /// `pairs` as a `.strings` file, escaped as a tool writes it.
    static func strings(_ pairs: [(String, String)]) -> [UInt8] {
        func quoted(_ text: String) -> String {
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\u{0}", with: "\\000")
                + "\""
        }
        return Array(pairs.map { "\(quoted($0.0)) = \(quoted($0.1));\n" }.joined().utf8)
    }

    static func load(_ pairs: [(String, String)], sharing: inout KeySharing) throws -> LocalizationTable {
        guard case .table(let table) = try sharing.parse(strings(pairs), kind: .strings, table: "Localizable") else {
            throw ResourceParseError(location: SourceLocation(file: nil, line: 1, column: 1), message: "no table")
        }
        return table
    }

    @Test func valuesComeBackAsWritten() throws {
        var sharing = KeySharing()
        // The second table of the name is the one kept by position in the first's index.
        _ = try Self.load(Self.pairs, sharing: &sharing)
        let table = try Self.load(Self.pairs, sharing: &sharing)
        #expect(table.stores.indexedValues.count == Self.pairs.count)
        #expect(table.stores.plainValues.isEmpty)
        #expect(table.count == Self.pairs.count)
        for (key, value) in Self.pairs {
            #expect(table[key] == TableEntry(value: value))
        }
        #expect(table["before"] == nil)
        var seen: [String: String] = [:]
        table.forEachEntry { key, entry in seen[key] = entry.value }
        #expect(seen == Dictionary(uniqueKeysWithValues: Self.pairs))
    }

    @Test func aTableFromAFileEqualsOneFromEntries() throws {
        var sharing = KeySharing()
        let first = try Self.load(Self.pairs, sharing: &sharing)
        let second = try Self.load(Self.pairs.reversed(), sharing: &sharing)
        let fromStrings = LocalizationTable(strings: Dictionary(uniqueKeysWithValues: Self.pairs))
        let fromEntries = LocalizationTable(
            entries: Dictionary(uniqueKeysWithValues: Self.pairs.map { ($0.0, TableEntry(value: $0.1)) }))
        for table in [first, second] {
            #expect(table == fromStrings)
            #expect(table == fromEntries)
            #expect(fromEntries == table)
            #expect(table.hashValue == fromEntries.hashValue)
            #expect(table.entries == fromEntries.entries)
        }
        #expect(first == second)
        var changed = Self.pairs
        changed[3].1 = "not empty"
        #expect(try Self.load(changed, sharing: &sharing) != fromEntries)
        #expect(try Self.load(Array(Self.pairs.dropLast()), sharing: &sharing) != fromEntries)
    }

    @Test func languagesWithOtherKeySetsShareOneIndex() throws {
        var sharing = KeySharing()
        let english = try Self.load(Self.pairs, sharing: &sharing)
        // Fewer keys, one of its own, and a key twice (the last one wins).
        var german = Self.pairs.dropFirst(2).map { ($0.0, "de " + $0.1) }
        german += [("nur.deutsch", "nur"), ("short", "zuletzt")]
        let shared = try Self.load(german, sharing: &sharing)
        #expect(shared.stores.keyIndex.keys == english.stores.keyIndex.keys)
        #expect(shared.count == Self.pairs.count - 1)
        #expect(shared["nul"] == nil)
        #expect(shared["japanese"] == nil)
        #expect(shared["empty"]?.value == "de ")
        #expect(shared["short"]?.value == "zuletzt")
        #expect(shared["nur.deutsch"]?.value == "nur")
        #expect(english["short"]?.value == "ok")
        #expect(ParsedResource.table(shared) == (try ParsedResource.parse(Self.strings(german), kind: .strings)))
    }

    @Test func keysEqualAsStringsButNotAsBytesShareAPosition() throws {
        var sharing = KeySharing()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        _ = try Self.load([(composed, "1"), ("other", "2")], sharing: &sharing)
        let table = try Self.load([(decomposed, "3"), ("other", "4")], sharing: &sharing)
        #expect(table.count == 2)
        #expect(table[composed]?.value == "3")
        #expect(table.stores.plainValues.isEmpty)
    }

    @Test func overlaysKeepTheirOrder() throws {
        var sharing = KeySharing()
        _ = try Self.load(Self.pairs, sharing: &sharing)
        let strings = try Self.load(Self.pairs, sharing: &sharing)
        let plural = TableEntry(
            value: "%d files",
            plural: PluralFormat(
                format: "%#@n@", variables: ["n": .init(forms: [.one: "%d file", .other: "%d files"])]))
        // A `.stringsdict` over the `.strings` file: its entry wins, the rest stay.
        let dictionary = LocalizationTable(entries: ["long": plural, "plural.only": plural])
        let merged = strings.overlaid(with: dictionary)
        #expect(merged.count == Self.pairs.count + 1)
        #expect(merged["long"] == plural)
        #expect(merged["plural.only"] == plural)
        #expect(merged["nul"]?.value == "before\u{0}after")
        #expect(strings["long"]?.value == Self.pairs[4].1)
        // Plain strings over the packed table: set at the shared positions, or by key.
        let later = LocalizationTable(strings: ["empty": "now set", "japanese": "", "new": "新しい"])
        let replaced = strings.overlaid(with: later)
        #expect(replaced.count == Self.pairs.count + 1)
        #expect(replaced["empty"]?.value == "now set")
        #expect(replaced["japanese"]?.value == "")
        #expect(replaced["new"]?.value == "新しい")
        #expect(replaced["emoji"]?.value == "👩‍👩‍👧 family")
        var expected = Dictionary(uniqueKeysWithValues: Self.pairs)
        expected.merge(["empty": "now set", "japanese": "", "new": "新しい"]) { _, new in new }
        #expect(replaced == LocalizationTable(strings: expected))
        // And the packed table over plain strings.
        let under = LocalizationTable(strings: ["nul": "old", "kept": "k"])
        let over = under.overlaid(with: strings)
        #expect(over["nul"]?.value == "before\u{0}after")
        #expect(over["kept"]?.value == "k")
        #expect(over.count == Self.pairs.count + 1)
    }
}
