/// The resources under some root directories, loaded at one moment: the catalog that
/// answers lookups, the files it came from, and the files that failed to parse.
///
/// This is the engine of the client's embedded mode and of `l10nctl`'s offline commands,
/// loaded again in full on a change; the daemon keeps its tables in a `ResourceStore`
/// instead, which re-reads only the files that changed.
///
/// ```swift
/// let resources = ResourceSet.load(roots: ["Examples/Resources"])
/// resources.lookup("多言語化", languages: [try LanguageTag("en")]).value  // "Multilingualization"
/// ```
public struct ResourceSet: Sendable {
    /// The root directories, in precedence order.
    public let roots: [String]
    /// The assembled tables.
    public let catalog: ResourceCatalog
    /// Every resource file found, parsed or not.
    public let files: [ResourceFile]
    /// The files that could not be read or parsed, and the entries left out of files that
    /// were (a bad `.stringsdict` entry, a bad catalog localization), each located.
    public let errors: [ResourceParseError]
    /// The chains lookups were made along: the set is replaced whole when the files are
    /// read again, and the cache with it.
    private let chains = FallbackChainCache<[LanguageTag]>()

    /// Scans `roots`, parses every file, and assembles the catalog. Never throws: a file
    /// that fails is left out and reported in ``errors``.
    public static func load(roots: [String], developmentLanguage: LanguageTag = LanguageTag(language: "en"))
        -> ResourceSet
    {
        let files = ResourceScanner.scan(roots: roots)
        var loaded: [(file: ResourceFile, content: ParsedResource)] = []
        var errors: [ResourceParseError] = []
        var keySharing = KeySharing()
        for file in files {
            do {
                let (content, problems) = try ResourceScanner.read(file)
                loaded.append((file, keySharing.share(content, table: file.table)))
                errors += problems.filter(\.isEntryLost)
            } catch {
                errors.append(error)
            }
        }
        let catalog = ResourceCatalog(developmentLanguage: developmentLanguage, resources: loaded)
        return ResourceSet(roots: roots, catalog: catalog, files: files, errors: errors)
    }

    /// Looks `key` up for `languages` (preferred first) in `table`, `plural` selecting a
    /// plural entry's forms (``ResourceCatalog/lookup(_:in:chain:plural:)``).
    public func lookup(
        _ key: String, languages: [LanguageTag], table: String? = nil, plural: PluralCounts = .none
    ) -> LookupResult {
        catalog.lookup(key, in: table, chain: chains.chain(for: languages) { catalog.chain(languages) }, plural: plural)
    }
}
