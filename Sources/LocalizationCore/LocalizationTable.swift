/// The entries of one table (`Localizable`, `InfoPlist`…) in one language, by key.
///
/// A table is a value: once built it never changes, so a reader holding one sees a
/// complete version of it, never a mix of two.
public struct LocalizationTable: Sendable, Hashable, Codable {
    /// The entries by key.
    public var entries: [String: TableEntry]

    /// Creates a table from its entries.
    public init(entries: [String: TableEntry] = [:]) {
        self.entries = entries
    }

    /// Creates a table of plain strings, as a `.strings` file gives.
    public init(strings: [String: String]) {
        self.entries = strings.mapValues { TableEntry(value: $0) }
    }

    /// The entry for `key`, if the table has one.
    public subscript(key: String) -> TableEntry? {
        entries[key]
    }

    /// The number of keys.
    public var count: Int { entries.count }

    /// This table with `other`'s entries laid over it: a key in both takes `other`'s entry.
    public func overlaid(with other: LocalizationTable) -> LocalizationTable {
        LocalizationTable(entries: entries.merging(other.entries) { _, new in new })
    }
}
