import LocalizationCore

/// The tables each (language, table) pair is assembled from, gathered in one pass over the
/// loaded files.
///
/// Assembling each changed pair from a search of every file cost pairs × files: 2,000
/// languages took 23 s to load. Grouped once, each pair costs only its own files (and the
/// String Catalogs of its table, each split by language once).
struct TableContributors {
    private var pieces: [TableChange: [(file: ResourceFile, table: LocalizationTable)]] = [:]

    /// Groups the contributions of `files` to the pairs in `wanted`.
    init(_ files: some Sequence<ResourceStore.LoadedFile>, for wanted: Set<TableChange>) {
        guard !wanted.isEmpty else { return }
        let tables = Set(wanted.map(\.table))
        for loaded in files where tables.contains(loaded.file.table) {
            switch loaded.content?.parsed {
            case .table(let table):
                guard let language = loaded.file.language else { continue }
                let pair = TableChange(language: language.identifier, table: loaded.file.table)
                if wanted.contains(pair) { pieces[pair, default: []].append((loaded.file, table)) }
            case .catalog(let catalog):
                for (code, entries) in catalog.tables {
                    guard let language = try? LanguageTag(code) else { continue }
                    let pair = TableChange(language: language.identifier, table: loaded.file.table)
                    if wanted.contains(pair) {
                        pieces[pair, default: []].append((loaded.file, LocalizationTable(entries: entries)))
                    }
                }
            case nil:
                continue
            }
        }
    }

    /// The assembled table of `pair`, or `nil` when no file contributes to it.
    func table(for pair: TableChange) -> LocalizationTable? {
        ResourceCatalog.assembledTable(pieces[pair] ?? [])
    }
}
