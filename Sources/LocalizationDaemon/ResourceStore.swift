import Foundation
import Glibc
public import LocalizationCore
import Synchronization

/// The daemon's tables: reads resource files, keeps the last good parse of each, and
/// publishes an immutable ``ResourceSnapshot`` per change.
///
/// Refreshes re-read only the paths they are given, and re-parse a file only when its bytes
/// changed. A file that fails to parse keeps its last good table and its error is listed in
/// the snapshot until the file is fixed or removed. Refreshes are serialised by the caller
/// (the daemon's serial queue); ``snapshot`` may be read from any thread.
public final class ResourceStore: Sendable {
    /// One known file: what it is, its bytes' fingerprint, its last good content, its error.
    struct LoadedFile {
        var file: ResourceFile
        var fingerprint: Int
        var content: ParsedResource?
        var error: ResourceParseError?
        /// Entries of a parsed file left out for their own faults (the rest is served).
        var lostEntries: [ResourceParseError] = []
    }

    struct State {
        var files: [String: LoadedFile] = [:]
        /// The paths of `files`, to find those under a directory without looking at all of them.
        var paths = PathTree()
        var catalog: ResourceCatalog
        var generation: UInt64 = 0
    }

    /// The root directories, in precedence order.
    public let roots: [String]
    /// The language every chain ends with.
    public let developmentLanguage: LanguageTag
    private let state: Mutex<State>
    private let current: Mutex<ResourceSnapshot>

    /// The real paths of the roots when links leading out of them are refused; `nil` when allowed.
    let confinement: [String]?
    /// The largest file parsed (`max_file_bytes`); a larger one is an error that keeps its
    /// last good table.
    let maximumFileBytes: Int

    /// Creates an empty store for `roots`; call ``rescan()`` to load them. Unless
    /// `allowSymlinksOutsideRoots`, a link under a root that leads outside every root is
    /// not followed, so no file outside the roots is ever read. A file over
    /// `maximumFileBytes` is reported, not parsed.
    public init(
        roots: [String], developmentLanguage: LanguageTag, allowSymlinksOutsideRoots: Bool = false,
        maximumFileBytes: Int = ResourceFileReader.defaultMaximumBytes
    ) {
        self.maximumFileBytes = maximumFileBytes
        self.roots = roots.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.developmentLanguage = developmentLanguage
        self.confinement =
            allowSymlinksOutsideRoots
            ? nil : self.roots.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        let catalog = ResourceCatalog(developmentLanguage: developmentLanguage)
        state = Mutex(State(catalog: catalog))
        current = Mutex(ResourceSnapshot(generation: 0, catalog: catalog, errors: [], fileCount: 0))
    }

    /// The current snapshot.
    public var snapshot: ResourceSnapshot { current.withLock { $0 } }

    /// Re-reads everything under every root.
    @discardableResult
    public func rescan() -> ChangeSummary {
        refresh(paths: roots)
    }

    /// Re-reads `paths`: files are read again (or dropped when gone); directories are
    /// scanned again, picking up new files and dropping vanished ones below them.
    @discardableResult
    public func refresh(paths: [String]) -> ChangeSummary {
        state.withLock { state in
            var touched: [String: LoadedFile?] = [:]
            var parsed = 0
            var newErrors: [ResourceParseError] = []
            var keySharing = KeySharing(catalog: state.catalog)
            for path in Set(paths.map(normalised)) {
                for (filePath, outcome) in reread(path, in: state, keySharing: &keySharing) {
                    touched[filePath] = outcome
                }
            }
            var affected = Set<TableChange>()
            var anyFileChanged = false
            for (path, outcome) in touched {
                let old = state.files[path]
                if let outcome, let old, outcome.fingerprint == old.fingerprint, outcome.file == old.file {
                    continue  // same bytes: nothing to do
                }
                anyFileChanged = true
                if let old { affected.formUnion(pairs(of: old)) }
                if var outcome {
                    parsed += 1
                    if outcome.content == nil, let error = outcome.error {
                        newErrors.append(error)
                        outcome.content = old?.file == outcome.file ? old?.content : nil
                    }
                    affected.formUnion(pairs(of: outcome))
                    state.files[path] = outcome
                    state.paths.insert(path)
                } else {
                    state.files[path] = nil
                    state.paths.remove(path)
                }
            }
            var changes: [TableChange] = []
            let contributors = TableContributors(state.files.values, for: affected)
            for pair in affected {
                let before = state.catalog.tables[pair.language]?[pair.table]
                let after = contributors.table(for: pair)
                if before != after {
                    state.catalog.setTable(after, language: pair.language, name: pair.table)
                    changes.append(pair)
                }
            }
            // A catalog's sourceLanguage is its keys' fallback (docs/LOOKUP.md): keep it current.
            // Only the String Catalogs: sorting every file per refresh would cost all files.
            let sources = ResourceCatalog.sourceLanguages(
                of: state.files.values.compactMap { loaded in
                    guard case .catalog = loaded.content else { return nil }
                    return loaded.content.map { (loaded.file, $0) }
                })
            if sources != state.catalog.sourceLanguages {
                state.catalog.setSourceLanguages(sources)
            }
            if !changes.isEmpty || state.generation == 0 {
                state.generation += 1
            }
            if anyFileChanged || changes.isEmpty == false || current.withLock({ $0.generation }) != state.generation {
                publish(state)  // new tables, or only new or cleared errors
            }
            if parsed > 0 {
                // Parsing freed file bytes, entry lists and the keys shared away.
                HeapTrim.returnFreePages()
            }
            return ChangeSummary(
                generation: state.generation, changes: changes.sorted(), filesParsed: parsed, newErrors: newErrors)
        }
    }

    /// Swaps in the snapshot `state` describes.
    private func publish(_ state: State) {
        let errors = state.files.values.flatMap { [$0.error].compactMap { $0 } + $0.lostEntries }.sorted {
            $0.description < $1.description
        }
        let snapshot = ResourceSnapshot(
            generation: state.generation, catalog: state.catalog, errors: errors, fileCount: state.files.count)
        current.withLock { $0 = snapshot }
    }

    /// The outcome for every file at or below `path`: a loaded file, or `nil` when gone.
    /// A path above some roots (`/` for a root `/srv/l10n`) re-reads those roots; a path
    /// outside every root reads nothing. Each table parsed shares its keys through
    /// `keySharing` at once, so the copies it replaces are freed before the next file is read.
    ///
    /// What cannot be looked at — a directory that cannot be listed, a path whose directory
    /// may not be searched — is not taken for gone: the files known there keep their tables.
    /// Costs the files at or below `path`, not every file known.
    private func reread(
        _ path: String, in state: State, keySharing: inout KeySharing
    ) -> [String: LoadedFile?] {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard let rootIndex = rootIndex(of: path) else {
            var outcomes: [String: LoadedFile?] = [:]
            for root in roots where root.hasPrefix(prefix) {
                outcomes.merge(reread(root, in: state, keySharing: &keySharing)) { _, new in new }
            }
            return outcomes
        }
        let presence = Self.presence(of: path)
        if presence == .unknown { return [:] }
        var outcomes: [String: LoadedFile?] = [:]
        for knownPath in state.paths.paths(atOrBelow: path) {
            outcomes[knownPath] = .some(nil)
        }
        // A link out of the roots is not read; within them, the scanner cuts loops.
        let confined = confinement.map { ResourceScanner.isInside(path, realRoots: $0) } ?? true
        let file = ResourceFile(path: path, rootIndex: rootIndex)
        if presence == .directory, file == nil, confined {
            let survey = ResourceScanner.survey(
                directory: path, depth: ResourceScanner.depth(of: path, below: roots[rootIndex]),
                rootIndex: rootIndex, confinedTo: confinement)
            for directory in survey.unlistable {
                for kept in state.paths.paths(atOrBelow: directory) { outcomes[kept] = nil }
            }
            for file in survey.files {
                outcomes[file.path] = load(file, known: state.files[file.path], keySharing: &keySharing)
            }
        } else if let file, presence != .absent, confined {
            // Also a directory named like a table, or a link that leads nowhere or loops: it
            // is reported by `load` rather than silently taken for a vanished file.
            outcomes[path] = load(file, known: state.files[path], keySharing: &keySharing)
        }
        return outcomes
    }

    /// Reads and parses one file; `nil` when it is gone. Bytes that `known` was loaded
    /// from are not parsed again: `known` is the outcome.
    ///
    /// A file that is there but cannot be read (permission denied, a directory, a link
    /// loop) is an error, listed in `status` like a parse error, and keeps its last good
    /// table: a `chmod` or a botched deployment must not silently drop a language.
    private func load(_ file: ResourceFile, known: LoadedFile?, keySharing: inout KeySharing) -> LoadedFile? {
        let bytes: [UInt8]
        switch ResourceFileReader.read(file.path, maximumBytes: maximumFileBytes) {
        case .bytes(let read): bytes = read
        case .gone: return nil
        case .failed(let problem):
            let error = ResourceParseError.unreadable(file.path, reason: problem)
            return LoadedFile(file: file, fingerprint: problem.hashValue, content: nil, error: error)
        }
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        let fingerprint = hasher.finalize()
        if let known, known.file == file, known.fingerprint == fingerprint { return known }
        do {
            let (content, problems) = try keySharing.read(bytes, kind: file.kind, file: file.path, table: file.table)
            return LoadedFile(
                file: file, fingerprint: fingerprint, content: content, error: nil,
                lostEntries: problems.filter(\.isEntryLost))
        } catch {
            return LoadedFile(file: file, fingerprint: fingerprint, content: nil, error: error)
        }
    }

    /// The (language, table) pairs a file contributes to.
    private func pairs(of loaded: LoadedFile) -> Set<TableChange> {
        if let language = loaded.file.language {
            return [TableChange(language: language.identifier, table: loaded.file.table)]
        }
        guard case .catalog(let catalog) = loaded.content else { return [] }
        return Set(
            catalog.tables.keys.compactMap { try? LanguageTag($0) }.map {
                TableChange(language: $0.identifier, table: loaded.file.table)
            })
    }

    /// What is at a path, as far as the daemon may look.
    enum Presence {
        /// Nothing (`ENOENT`, `ENOTDIR`).
        case absent
        /// A directory, or a link to one.
        case directory
        /// Anything else: a file, a link to nowhere or in a loop.
        case other
        /// Cannot tell: a directory on the way may not be searched (`EACCES`).
        case unknown
    }

    /// What is at `path`; a link that leads nowhere counts as there.
    static func presence(of path: String) -> Presence {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .absent : .unknown
        }
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? .directory : .other
    }

    /// The index of the root `path` lies under, or `nil` when it is outside every root.
    private func rootIndex(of path: String) -> Int? {
        roots.indices.first { path == roots[$0] || path.hasPrefix(roots[$0] == "/" ? "/" : roots[$0] + "/") }
    }

    private func normalised(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
