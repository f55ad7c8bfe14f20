import Synchronization

/// The resources under some root directories, loaded at one moment: the compiled segments
/// that answer lookups, the files they came from, and the files that failed to parse.
///
/// The client's embedded mode (and its fallback to the files) loads one and keeps only its
/// ``segments``, letting the parse go; `l10nctl`'s offline commands read its ``catalog``.
/// It is loaded again in full on a change; the daemon keeps its tables in a `ResourceStore`
/// instead, which re-reads only the files that changed. Lookups go through the one lookup
/// over segments (``SegmentSet/lookup(_:in:chain:plural:)``), the files compiled into
/// private segments in this process with the builder every reader shares.
///
/// ```swift
/// let resources = ResourceSet.load(roots: ["Examples/Resources"])
/// resources.lookup("多言語化", languages: [try LanguageTag("en")]).value  // "Multilingualization"
/// ```
public struct ResourceSet: Sendable {
    /// The root directories, in precedence order.
    public let roots: [String]
    /// Every resource file found, parsed or not.
    public let files: [ResourceFile]
    /// The entries skipped for their names (``SkippedName``): `.lproj` folders named for no
    /// language, entries whose names are not UTF-8. None of their files is in ``files``.
    public let skipped: [SkippedName]
    /// The files that could not be read or parsed, the entries left out of files that were
    /// (a bad `.stringsdict` entry, a bad catalog localization), each located, and any
    /// segment that could not be built (named `language/table`).
    public let errors: [ResourceParseError]
    /// The compiled segments lookups answer from.
    package let segments: SegmentSet
    /// The parsed files, from which ``catalog`` is assembled when first asked for.
    private let assembly: CatalogAssembly
    /// The chains lookups were made along: the set is replaced whole when the files are
    /// read again, and the cache with it.
    private let chains = FallbackChainCache<[LanguageTag]>()

    /// The assembled tables as a ``ResourceCatalog`` (lint, coverage, reports and the
    /// editor's model), built from the parsed files on first use and kept: lookups never
    /// need it.
    public var catalog: ResourceCatalog { assembly.catalog }

    /// Scans `roots`, parses every file, and compiles its segments. Never throws: a file
    /// that fails is left out and reported in ``errors``.
    public static func load(roots: [String], developmentLanguage: LanguageTag = LanguageTag(language: "en"))
        -> ResourceSet
    {
        let surveys = roots.enumerated().map { ResourceScanner.survey(directory: $1, rootIndex: $0) }
        let files = surveys.flatMap(\.files)
        var loaded: [(file: ResourceFile, content: SegmentSource)] = []
        var errors: [ResourceParseError] = []
        for file in files {
            do throws(ResourceParseError) {
                let bytes = try ResourceFileReader.bytes(of: file.path).get()
                let (content, problems) = try SegmentSource.read(bytes, kind: file.kind, file: file.path)
                loaded.append((file, content))
                errors += problems.filter(\.isEntryLost)
            } catch {
                errors.append(error)
            }
        }
        let (segments, failures) = SegmentSet.build(developmentLanguage: developmentLanguage, sources: loaded)
        for failure in failures {
            errors.append(.unreadable("\(failure.language)/\(failure.table)", reason: failure.error.description))
        }
        return ResourceSet(
            roots: roots, files: files, skipped: surveys.flatMap(\.skipped), errors: errors, segments: segments,
            assembly: CatalogAssembly(developmentLanguage: developmentLanguage, sources: loaded))
    }

    /// Looks `key` up for `languages` (preferred first) in `table`, `plural` selecting a
    /// plural entry's forms: the answers of ``ResourceCatalog/lookup(_:in:chain:plural:)``,
    /// from the segments.
    public func lookup(
        _ key: String, languages: [LanguageTag], table: String? = nil, plural: PluralCounts = .none
    ) -> LookupResult {
        let chain = chains.chain(for: languages) { segments.chain(languages) }
        do {
            return try segments.lookup(key, in: table, chain: chain, plural: plural)
        } catch {
            // Private segments this process built are never damaged; if one were, the
            // catalog of the same files still gives the right answer.
            return catalog.lookup(key, in: table, chain: chain, plural: plural)
        }
    }
}

/// The ``ResourceCatalog`` of a ``ResourceSet``'s parsed files, assembled on first use:
/// the embedded mode's lookups answer from segments and never ask for it.
private final class CatalogAssembly: Sendable {
    private let developmentLanguage: LanguageTag
    private let state: Mutex<(sources: [(file: ResourceFile, content: SegmentSource)], catalog: ResourceCatalog?)>

    init(developmentLanguage: LanguageTag, sources: [(file: ResourceFile, content: SegmentSource)]) {
        self.developmentLanguage = developmentLanguage
        state = Mutex((sources, nil))
    }

    var catalog: ResourceCatalog {
        state.withLock { state in
            if let catalog = state.catalog { return catalog }
            var sharing = KeySharing()
            let resources = state.sources.map { file, content -> (file: ResourceFile, content: ParsedResource) in
                (file, sharing.share(content.parsed, table: file.table))
            }
            let catalog = ResourceCatalog(developmentLanguage: developmentLanguage, resources: resources)
            // The parsed files are needed no more: the catalog is kept instead.
            state = ([], catalog)
            return catalog
        }
    }
}
