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
        try read(bytes, kind: kind, file: file).content
    }

    /// Parses `bytes` as the format `kind` names, with the entries it had to leave out or
    /// serve with a stand-in (``StringsDictReader/read(_:file:)``,
    /// ``StringCatalogReader/read(_:file:)``); a `.strings` file's are its values that are
    /// no strings and the rest of a file whose reading ended early (``StringsTable/problems``).
    ///
    /// - Throws: ``ResourceParseError`` located in `file`, when the file as a whole fails.
    public static func read(
        _ bytes: [UInt8], kind: ResourceFile.Kind, file: String? = nil
    ) throws(ResourceParseError) -> (content: ParsedResource, problems: [ResourceParseError]) {
        switch kind {
        case .strings:
            let parsed = try StringsParser.parseTable(bytes, file: file)
            return (.table(LocalizationTable(strings: parsed.dictionary)), parsed.problems)
        case .stringsDict:
            let (entries, problems) = try StringsDictReader.read(bytes, file: file)
            return (.table(LocalizationTable(entries: entries)), problems)
        case .stringCatalog:
            let (catalog, problems) = try StringCatalogReader.read(bytes, file: file)
            return (.catalog(catalog), problems)
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
