/// The result of parsing one `.strings` file: its entries in file order and the table they
/// make.
public struct ParsedStrings: Sendable {
    /// Every entry in file order, duplicates included.
    public var entries: [StringsEntry]
    /// The value for each key; when a key appears twice the last one wins, as in CoreFoundation.
    public var table: [String: String]
    /// Each later entry whose key appeared earlier in the file, in file order.
    public var duplicates: [StringsEntry]

    /// Creates a result.
    public init(entries: [StringsEntry] = [], table: [String: String] = [:], duplicates: [StringsEntry] = []) {
        self.entries = entries
        self.table = table
        self.duplicates = duplicates
    }

    /// The entries of `table`, with its keys compared as Swift strings (canonically
    /// equivalent keys are one key, as they are in a dictionary).
    package init(_ table: StringsTable) {
        var entries: [StringsEntry] = []
        entries.reserveCapacity(table.spans.count)
        var values: [String: String] = Dictionary(minimumCapacity: table.count)
        var duplicates: [StringsEntry] = []
        for position in table.spans.indices {
            let entry = table.entry(at: position)
            if values.updateValue(entry.value, forKey: entry.key) != nil {
                duplicates.append(StringsEntry(key: entry.key, value: entry.value, location: entry.location))
            }
            entries.append(entry)
        }
        self.init(entries: entries, table: values, duplicates: duplicates)
    }
}
