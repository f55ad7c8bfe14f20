/// Makes the tables of one name share their keys across languages as they load.
///
/// Every language of a table usually has the same keys. The first plain table of a name
/// (as a `.strings` file gives) lends its keys as a ``TableKeyIndex``; every later one of
/// that name keeps only its values by position in that index, as UTF-8 in one buffer per
/// table (``IndexedValues``), copied straight from the parsed file's buffer. What a
/// table holds does not change, nor how fast a key is found (one hash lookup either way).
///
/// ```swift
/// var sharing = KeySharing(catalog: current)
/// let content = try sharing.parse(bytes, kind: .strings, file: path, table: "Localizable")
/// ```
package struct KeySharing {
    /// The index each table name's new tables use.
    private var indexes: [String: TableKeyIndex] = [:]
    /// The tables already loaded, whose indexes new tables join.
    private let catalog: ResourceCatalog?

    /// Creates a sharing that starts from the indexes of `catalog`'s tables.
    package init(catalog: ResourceCatalog? = nil) {
        self.catalog = catalog
    }

    /// Parses `bytes` like ``ParsedResource/parse(_:kind:file:)``, a `.strings` file's
    /// values kept by position in the shared index of `table`.
    ///
    /// Reads the file's entries in file order, which is usually the index's order.
    ///
    /// - Throws: ``ResourceParseError`` located in `file`.
    package mutating func parse(
        _ bytes: [UInt8], kind: ResourceFile.Kind, file: String? = nil, table name: String
    ) throws(ResourceParseError) -> ParsedResource {
        try read(bytes, kind: kind, file: file, table: name).content
    }

    /// ``parse(_:kind:file:table:)``, with the entries the file had to leave out or serve
    /// with a stand-in (``ParsedResource/read(_:kind:file:)``).
    package mutating func read(
        _ bytes: [UInt8], kind: ResourceFile.Kind, file: String? = nil, table name: String
    ) throws(ResourceParseError) -> (content: ParsedResource, problems: [ResourceParseError]) {
        guard kind == .strings else { return try ParsedResource.read(bytes, kind: kind, file: file) }
        // The file's spans are walked straight from its buffer into the table's: a `String`
        // is made only for a key the shared index lacks (and each key of a name's first
        // table), no entry list or dictionary of the whole file first.
        let parsed = try StringsParser.parseTable(bytes, file: file)
        guard !parsed.isEmpty else { return (.table(LocalizationTable(strings: [:])), parsed.problems) }
        let table = share(count: parsed.count, table: name, walk: parsed.forEachEntryBytes)
        return (.table(table), parsed.problems)
    }

    /// `content` with a plain table's values kept by position in the shared index of
    /// `table`. A String Catalog or a `.stringsdict` is returned as it is.
    package mutating func share(_ content: ParsedResource, table name: String) -> ParsedResource {
        guard case .table(let table) = content, table.isPlainByKey else { return content }
        let shared = share(count: table.count, table: name, walk: LocalizationTable.walk(table.stores.plainValues))
        return .table(shared)
    }

    /// The table of the pairs `walk` gives (`count` distinct keys) in the index of its
    /// name; the first table of a name, or one the index fits badly, starts a new index
    /// from its own keys.
    private mutating func share(
        count: Int, table name: String, walk: LocalizationTable.KeyValueWalk
    ) -> LocalizationTable {
        if let index = indexes[name] ?? loadedIndex(named: name), index.count <= 3 * count {
            let shared = LocalizationTable(indexing: walk, by: index)
            if shared.fitsItsKeyIndex {
                indexes[name] = index
                return shared
            }
        }
        let index = TableKeyIndex(keysOf: walk)
        indexes[name] = index
        return LocalizationTable(indexing: walk, by: index)
    }

    /// The index of the catalog's largest table named `name` that has one.
    private func loadedIndex(named name: String) -> TableKeyIndex? {
        let tables = catalog?.tables.values.compactMap { $0[name] }.filter { $0.stores.keyIndex.count > 0 }
        return tables?.max { $0.count < $1.count }?.stores.keyIndex
    }
}
