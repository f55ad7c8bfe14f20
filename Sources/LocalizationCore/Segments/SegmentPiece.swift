/// What one file gives one (language, table) segment: a `.strings` file's parsed table,
/// whose keys and values stay spans of its one buffer, or the entries of a `.stringsdict`
/// file or of one language of a String Catalog, through their models.
package enum SegmentPiece: Sendable {
    /// A `.strings` file (text, XML or binary property list), as the parser leaves it.
    case strings(StringsTable)
    /// Entries with plural forms or a catalog's marks: a `.stringsdict` file, one language
    /// of a String Catalog.
    case table(LocalizationTable)

    /// The number of entries the piece gives, duplicates included.
    var entryCount: Int {
        switch self {
        case .strings(let table): table.spans.count
        case .table(let table): table.count
        }
    }
}
