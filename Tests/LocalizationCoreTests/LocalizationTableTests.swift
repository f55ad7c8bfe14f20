import Foundation
import LocalizationCore
import Testing

@Suite struct LocalizationTableTests {
    static let plural = TableEntry(
        value: "%d files",
        plural: PluralFormat(format: "%#@n@", variables: ["n": .init(forms: [.one: "%d file", .other: "%d files"])]))

    @Test func overlayTakesTheNewerEntry() {
        let base = LocalizationTable(strings: ["a": "1", "b": "2"])
        let over = LocalizationTable(strings: ["b": "3", "c": "4"])
        let merged = base.overlaid(with: over)
        #expect(merged["a"]?.value == "1")
        #expect(merged["b"]?.value == "3")
        #expect(merged["c"]?.value == "4")
        #expect(merged.count == 3)
    }

    @Test func overlayAcrossPlainAndFullEntries() {
        let strings = LocalizationTable(strings: ["files": "files", "plain": "p", "kept": "k"])
        let dictionary = LocalizationTable(entries: ["files": Self.plural, "new": TableEntry(value: "n", state: "new")])
        let merged = strings.overlaid(with: dictionary)
        #expect(merged.count == 4)
        #expect(merged["files"] == Self.plural)
        #expect(merged["plain"] == TableEntry(value: "p"))
        #expect(merged["new"]?.state == "new")
        // The other way round a plain string replaces the plural entry.
        let reversed = dictionary.overlaid(with: strings)
        #expect(reversed.count == 4)
        #expect(reversed["files"] == TableEntry(value: "files"))
        #expect(reversed["new"]?.state == "new")
    }

    @Test func equalityAndHashIgnoreHowEntriesAreStored() {
        let plain = LocalizationTable(strings: ["a": "1", "b": "2"])
        let full = LocalizationTable(entries: ["a": TableEntry(value: "1"), "b": TableEntry(value: "2")])
        #expect(plain == full)
        #expect(plain.hashValue == full.hashValue)
        #expect(plain != LocalizationTable(strings: ["a": "1", "b": "3"]))
        #expect(plain != LocalizationTable(entries: ["a": TableEntry(value: "1"), "b": Self.plural]))
        #expect(plain != LocalizationTable(strings: ["a": "1"]))
    }

    @Test func entriesListEveryStore() {
        let table = LocalizationTable(strings: ["a": "1"]).overlaid(
            with: LocalizationTable(entries: ["b": Self.plural]))
        #expect(table.entries == ["a": TableEntry(value: "1"), "b": Self.plural])
        var visited: [String: TableEntry] = [:]
        table.forEachEntry { key, entry in visited[key] = entry }
        #expect(visited == table.entries)
        var replaced = table
        replaced.entries = ["c": TableEntry(value: "3")]
        #expect(replaced.count == 1)
        #expect(replaced["c"]?.value == "3")
        #expect(replaced["a"] == nil)
    }

    @Test func codableKeepsTheEntriesShape() throws {
        let table = LocalizationTable(strings: ["a": "1"]).overlaid(
            with: LocalizationTable(entries: ["b": Self.plural]))
        let json = try JSONEncoder().encode(table)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set((object["entries"] as? [String: Any])?.keys ?? [:].keys) == ["a", "b"])
        #expect(try JSONDecoder().decode(LocalizationTable.self, from: json) == table)
    }

    @Test func pluralOtherFormFillsEveryVariable() {
        let format = PluralFormat(
            format: "%#@files@ in %#@folders@",
            variables: [
                "files": .init(valueType: "d", forms: [.one: "%d file", .other: "%d files"]),
                "folders": .init(valueType: "d", forms: [.other: "%d folders"]),
            ])
        #expect(format.otherFormString == "%d files in %d folders")
    }
}
