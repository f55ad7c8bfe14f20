/// One resource file's content as segments are built from it: a `.strings` file stays its
/// parsed buffer (no `String` per entry), a `.stringsdict` file and a String Catalog go
/// through their readers' models.
package enum SegmentSource: Sendable {
    /// An `.lproj` `.strings` file.
    case strings(StringsTable)
    /// An `.lproj` `.stringsdict` file's entries.
    case table(LocalizationTable)
    /// A String Catalog: a piece for each language it lists.
    case catalog(StringCatalog)

    /// Parses `bytes` as the format `kind` names, with the entries it had to leave out or
    /// serve with a stand-in, as ``ParsedResource/read(_:kind:file:)`` does.
    ///
    /// - Throws: ``ResourceParseError`` located in `file`, when the file as a whole fails.
    package static func read(
        _ bytes: [UInt8], kind: ResourceFile.Kind, file: String? = nil
    ) throws(ResourceParseError) -> (content: SegmentSource, problems: [ResourceParseError]) {
        guard kind == .strings else {
            let (content, problems) = try ParsedResource.read(bytes, kind: kind, file: file)
            return (SegmentSource(content), problems)
        }
        let parsed = try StringsParser.parseTable(bytes, file: file)
        return (.strings(parsed), parsed.problems)
    }

    /// The source of content already parsed (a `.strings` file's table then goes through
    /// its model too).
    package init(_ content: ParsedResource) {
        switch content {
        case .table(let table): self = .table(table)
        case .catalog(let catalog): self = .catalog(catalog)
        }
    }

    /// The content as the catalog's model holds it (a `.strings` file's entries as a
    /// table of strings, the last of duplicate keys winning, as ``ParsedResource`` reads it).
    package var parsed: ParsedResource {
        switch self {
        case .strings(let table): .table(LocalizationTable(strings: table.dictionary))
        case .table(let table): .table(table)
        case .catalog(let catalog): .catalog(catalog)
        }
    }

    /// The catalog's `sourceLanguage` as written; `nil` for an `.lproj` file.
    var catalogSourceLanguage: String? {
        guard case .catalog(let catalog) = self else { return nil }
        return catalog.sourceLanguage
    }

    /// The pieces the content gives, by language identifier: an `.lproj` file's one
    /// language (from `file`), or every language a catalog lists whose code is a tag.
    func pieces(of file: ResourceFile) -> [(language: String, piece: SegmentPiece)] {
        switch self {
        case .strings(let table): file.language.map { [($0.identifier, .strings(table))] } ?? []
        case .table(let table): file.language.map { [($0.identifier, .table(table))] } ?? []
        case .catalog(let catalog):
            catalog.tables.compactMap { code, entries in
                (try? LanguageTag(code)).map { ($0.identifier, .table(LocalizationTable(entries: entries))) }
            }
        }
    }
}
