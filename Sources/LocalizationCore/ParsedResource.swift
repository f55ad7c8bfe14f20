/// The parsed content of one resource file.
public enum ParsedResource: Sendable, Hashable {
    /// The entries of an `.lproj` file, for its one language and table.
    case table(LocalizationTable)
    /// A String Catalog, with entries for every language it lists.
    case catalog(StringCatalog)

    /// Parses `bytes` as the format `kind` names.
    ///
    /// - Throws: ``ResourceParseError`` located in `file`.
    public static func parse(
        _ bytes: [UInt8], kind: ResourceFile.Kind, file: String? = nil
    ) throws(ResourceParseError) -> ParsedResource {
        switch kind {
        case .strings:
            return .table(LocalizationTable(strings: try StringsParser.parse(bytes, file: file).table))
        case .stringsDict:
            return .table(LocalizationTable(entries: try StringsDictReader.parse(bytes, file: file)))
        case .stringCatalog:
            return .catalog(try StringCatalogReader.parse(bytes, file: file))
        }
    }

    /// The number of entries, over every language for a catalog.
    public var entryCount: Int {
        switch self {
        case .table(let table): table.count
        case .catalog(let catalog): catalog.tables.values.reduce(0) { $0 + $1.count }
        }
    }
}
