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
}
