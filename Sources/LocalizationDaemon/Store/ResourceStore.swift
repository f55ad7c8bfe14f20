import Foundation
import Glibc
package import LocalizationCore
import LocalizationSockets
import Synchronization

/// The daemon's tables: reads resource files, keeps the last good parse of each, and
/// publishes an immutable ``ResourceSnapshot`` per change, whose segments are the store.
///
/// Refreshes re-read only the paths they are given, and re-parse a file only when its bytes
/// changed; only the (language, table) segments its files feed are built again, every
/// other one shared with the snapshot before as the same object. A file that fails to parse keeps its last good table and its error is listed in
/// the snapshot until the file is fixed or removed. A refresh reads and parses with no lock
/// held and swaps its result in under one, so a slow disk holds up no one; refreshes are
/// serialised by the caller (the daemon's `reloads` queue), and one that overlaps another
/// anyway reads again on top of what the other swapped in. ``snapshot`` may be read from
/// any thread. Large files can be parsed apart, off the caller's queue, their last tables
/// served meanwhile (``parseInBackground(filesOf:whenParsed:)``).
///
/// Nothing good is replaced by nothing: a file is dropped only when the system says it is
/// gone (not when it merely cannot be looked at) and it has stayed gone for ``holdGrace``, a
/// file found empty where it had content is held while someone writes it or it was changed
/// within ``holdGrace``, and a root that resolves to nothing or holds
/// no language keeps the tables last read from it, with an error. A root whose links resolve
/// elsewhere than at its last reading (a re-pointed release link) is read whole, and swapped
/// in one snapshot.
package final class ResourceStore: Sendable {
    /// One known file: what it is, its bytes' fingerprint, its last good content, its error.
    struct LoadedFile {
        var file: ResourceFile
        var fingerprint: Int
        var content: SegmentSource?
        var error: ResourceParseError?
        /// Entries of a parsed file left out for their own faults (the rest is served).
        var lostEntries: [ResourceParseError] = []
        /// The size of the bytes `content` was parsed from.
        var byteCount = 0
        /// What a `.strings` file with no entries holds, when that is all (``StringsTable/blankContent(of:)``).
        var blank: String? = nil
        /// The number of the read that last found these bytes (reads are numbered in order):
        /// a parse finished elsewhere is applied only over a table read before it.
        var read: UInt64 = 0
        /// The file as `stat` found it just before the read of its bytes, when settled.
        var stamp: FileStamp? = nil
    }

    struct State {
        var files: [String: LoadedFile] = [:]
        /// The paths of `files`, to find those under a directory without looking at all of them.
        var paths = PathTree()
        /// The segments lookups answer from, rebuilt per changed (language, table).
        var segments: SegmentSet
        /// The segments that could not be built at their last try, each still serving its
        /// last segment (if any), listed in `status` until a build of it succeeds.
        var buildFailures: [SegmentKey: SegmentBuildError] = [:]
        var generation: UInt64 = 0
        /// Each root with its links resolved when it was last read whole; `nil` when it
        /// resolved to nothing (or has not been read).
        var resolvedRoots: [String?]
        /// Roots that resolve to nothing or hold no language, by index: their last tables are
        /// kept, and the next refresh that touches one reads it whole.
        var rootErrors: [Int: ResourceParseError] = [:]
        /// Known files found gone: since when, and how the nearest directory still there
        /// looked then (see ``holdVanishedFiles(_:except:state:reading:)``).
        var vanishedSince: [String: (since: ContinuousClock.Instant, around: DirectoryStamp?)] = [:]
        /// How many refreshes have been swapped in: a refresh worked out on an older state
        /// than the one stored is not swapped in, but done again.
        var revision: UInt64 = 0
    }

    /// What one refresh carries from file to file.
    struct Reading {
        /// The resolved roots links must stay inside; `nil` when links may lead anywhere.
        let confinement: [String]?
        /// Files found empty where they had content, or gone, and kept (see ``holdGrace``).
        var heldFiles: [String] = []
        /// Where large files are parsed, apart from the refresh; `nil` to parse every file here.
        let background: BackgroundParses?
        /// Files whose new bytes are being parsed in `background`: untouched by this refresh.
        var parsing: [String] = []
    }

    /// What the store reads and how: the part of the daemon's configuration it follows,
    /// replaced in place by ``reconfigure(_:)`` when a reload reads a changed `l10nd.conf`.
    package struct Settings: Sendable, Hashable {
        /// The root directories, in precedence order (without a trailing `/`).
        package var roots: [String]
        /// The language every chain ends with.
        package var developmentLanguage: LanguageTag
        /// Whether links under a root may lead outside every root.
        package var allowsSymlinksOutsideRoots: Bool
        /// The largest file parsed (`max_file_bytes`).
        package var maximumFileBytes: Int

        /// Creates settings; a trailing `/` of a root is dropped.
        package init(
            roots: [String], developmentLanguage: LanguageTag, allowsSymlinksOutsideRoots: Bool = false,
            maximumFileBytes: Int = ResourceFileReader.defaultMaximumBytes
        ) {
            self.roots = roots.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            self.developmentLanguage = developmentLanguage
            self.allowsSymlinksOutsideRoots = allowsSymlinksOutsideRoots
            self.maximumFileBytes = maximumFileBytes
        }
    }

    /// Changed only by ``reconfigure(_:)``, which runs, like every refresh, on the caller's
    /// one serial queue: a refresh never sees two settings.
    private let currentSettings: Mutex<Settings>
    /// What the store reads now.
    package var settings: Settings { currentSettings.withLock { $0 } }
    /// The root directories, in precedence order.
    package var roots: [String] { settings.roots }
    /// The language every chain ends with.
    package var developmentLanguage: LanguageTag { settings.developmentLanguage }
    private let state: Mutex<State>
    private let current: Mutex<ResourceSnapshot>
    /// Numbers every read of a file (``LoadedFile/read``).
    private let reads = Atomic<UInt64>(0)
    /// Set by ``parseInBackground(filesOf:whenParsed:)``.
    private let background = Mutex<BackgroundParses?>(nil)

    /// Whether links under a root may lead outside every root.
    var allowsSymlinksOutsideRoots: Bool { settings.allowsSymlinksOutsideRoots }
    /// How long a file found gone must stay gone, and a file found empty where it had
    /// content must have been left alone, before its table is dropped or emptied; until then
    /// its last table is kept and the refresh lists it in `heldFiles`, to be refreshed again
    /// once the time has passed. A rewrite in place truncates first and writes second, an
    /// editor or a deployment renames a file or directory away and back: the moment between
    /// is no table to serve. The watcher holds such paths back too, but its check and the
    /// store's read are moments apart; this is the check at the read.
    package let holdGrace: Duration
    /// The largest file parsed (`max_file_bytes`); a larger one is an error that keeps its
    /// last good table.
    var maximumFileBytes: Int { settings.maximumFileBytes }

    /// Creates an empty store for `roots`; call ``rescan()`` to load them. Unless
    /// `allowSymlinksOutsideRoots`, a link under a root that leads outside every root is
    /// not followed, so no file outside the roots is ever read. A file over
    /// `maximumFileBytes` is reported, not parsed.
    package init(
        roots: [String], developmentLanguage: LanguageTag, allowSymlinksOutsideRoots: Bool = false,
        maximumFileBytes: Int = ResourceFileReader.defaultMaximumBytes, holdGrace: Duration = .milliseconds(250)
    ) {
        self.holdGrace = holdGrace
        let settings = Settings(
            roots: roots, developmentLanguage: developmentLanguage,
            allowsSymlinksOutsideRoots: allowSymlinksOutsideRoots, maximumFileBytes: maximumFileBytes)
        currentSettings = Mutex(settings)
        let segments = SegmentSet(developmentLanguage: developmentLanguage)
        state = Mutex(
            State(
                segments: segments,
                resolvedRoots: Array(repeating: nil, count: settings.roots.count)))
        current = Mutex(
            ResourceSnapshot(generation: 0, segments: segments, errors: [], fileCount: 0))
    }

    /// The current snapshot.
    package var snapshot: ResourceSnapshot { current.withLock { $0 } }

    /// Re-reads everything under every root; with `waitingForParses`, parses every file
    /// before it returns, the large ones too (see ``refresh(paths:waitingForParses:)``).
    @discardableResult
    package func rescan(waitingForParses: Bool = false) -> ChangeSummary {
        refresh(paths: roots, waitingForParses: waitingForParses)
    }

    /// From now on, a refresh that finds new bytes in a file of `minimumBytes` or more
    /// parses them apart (on a queue of their own) and leaves that file's last table in
    /// place meanwhile, so that it holds up no other file's refresh; `whenParsed` is told
    /// the file's path once its parse has finished, to call ``refreshParsed(_:)``.
    package func parseInBackground(filesOf minimumBytes: Int, whenParsed: @escaping @Sendable (String) -> Void) {
        let parses = BackgroundParses(
            minimumBytes: minimumBytes, parse: Self.parse, whenParsed: whenParsed)
        background.withLock { $0 = parses }
    }

    /// Applies a parse of `path` finished apart: reads the file again, and serves the parse
    /// when it is of the bytes there, or (the file has changed again meanwhile, and that is
    /// being parsed now) when it is newer than the table served. Never over a newer one.
    @discardableResult
    package func refreshParsed(_ path: String) -> ChangeSummary {
        let summary = refresh(paths: [path])
        let read = state.withLock { $0.files[path]?.read } ?? .max
        background.withLock { $0 }?.settle(path, upTo: read)
        return summary
    }

    /// Reads under `settings` from now on (a reload read a changed `l10nd.conf`): every root
    /// is read afresh and swapped in as one new generation, so a reader sees the old roots'
    /// tables or the new ones, never a mix. The changes are every table that differs, and
    /// every table when the development language changed (each chain ends elsewhere).
    ///
    /// Nothing is kept from before: the files are numbered by root, and the roots changed.
    @discardableResult
    package func reconfigure(_ settings: Settings) -> ChangeSummary {
        currentSettings.withLock { $0 = settings }
        while true {
            let before = state.withLock { $0 }
            var next = State(
                segments: SegmentSet(developmentLanguage: settings.developmentLanguage),
                resolvedRoots: Array(repeating: nil, count: settings.roots.count))
            next.revision = before.revision
            var (summary, _) = refresh(settings.roots, in: &next, waitingForParses: true)
            let changed = keepUnchangedSegments(of: before, in: &next)
            let sourcesChanged = before.segments.sourceLanguages != next.segments.sourceLanguages
            next.generation = before.generation + (changed.isEmpty && !sourcesChanged ? 0 : 1)
            summary.generation = next.generation
            summary.changes = changed.sorted()
            let swapped = state.withLock { state in
                guard state.revision == before.revision else { return false }
                next.revision += 1
                state = next
                publish(next)
                return true
            }
            guard swapped else { continue }
            return summary
        }
    }

    /// The pairs whose segments differ between `before` and `next`, a state read whole
    /// afresh: every pair when the development language changed (each chain ends
    /// elsewhere). A segment with the same bytes as before is kept as the same object, so
    /// that whoever mapped it keeps its pages; a pair that could not be built keeps its
    /// segment from before.
    private func keepUnchangedSegments(of before: State, in next: inout State) -> Set<TableChange> {
        let old = before.segments
        let sameLanguage = old.developmentLanguage == next.segments.developmentLanguage
        var changed = Set<TableChange>()
        for table in Set(old.segments.keys).union(next.segments.segments.keys) {
            for language in Set((old.segments[table] ?? [:]).keys).union((next.segments.segments[table] ?? [:]).keys) {
                let was = old.segment(language: language, table: table)
                let now = next.segments.segment(language: language, table: table)
                let failed = next.buildFailures[SegmentKey(language: language, table: table)] != nil
                if sameLanguage, let was, failed || now.map({ Self.sameBytes(was, $0) }) == true {
                    next.segments = next.segments.replacing(was, language: language, table: table)
                    continue
                }
                changed.insert(TableChange(language: language, table: table))
            }
        }
        return changed
    }

    /// Whether two segments hold the same bytes (their lengths and body checksums equal).
    private static func sameBytes(_ one: Segment, _ other: Segment) -> Bool {
        one.bytes.count == other.bytes.count && one.bodyChecksum == other.bodyChecksum
    }

    /// Re-reads `paths`: files are read again (or dropped when gone); directories are
    /// scanned again, picking up new files and dropping vanished ones below them.
    ///
    /// A file found empty where it had content, changed within ``holdGrace``, keeps its
    /// last table and is listed in the summary's `heldFiles`: refresh those again once the
    /// grace has passed. A large file's new bytes are parsed apart (see
    /// ``parseInBackground(filesOf:whenParsed:)``) unless `waitingForParses`.
    @discardableResult
    package func refresh(paths: [String], waitingForParses: Bool = false) -> ChangeSummary {
        while true {
            var next = state.withLock { $0 }
            let revision = next.revision
            let (summary, publishes) = refresh(paths, in: &next, waitingForParses: waitingForParses)
            let swapped = state.withLock { state in
                guard state.revision == revision else { return false }
                next.revision += 1
                state = next
                if publishes { publish(next) }  // new tables, or only new or cleared errors
                return true
            }
            guard swapped else { continue }
            return summary
        }
    }

    /// ``refresh(paths:)`` worked out on `state`, a copy of the stored state: every file is
    /// read and parsed here, with no lock held. Also whether the result is to be published.
    private func refresh(
        _ paths: [String], in state: inout State, waitingForParses: Bool
    ) -> (summary: ChangeSummary, publishes: Bool) {
        var touched: [String: LoadedFile?] = [:]
        var parsed = 0
        var newErrors: [ResourceParseError] = []
        var unservedErrorFiles: Set<String> = []
        var newLostEntries: [ResourceParseError] = []
        let resolved = roots.map(Self.realPath)
        let targets = self.targets(paths, resolved: resolved, state: state)
        let wholeRoots = Set(roots.indices.filter { index in targets.contains { covers($0, root: index) } })
        let repointed = wholeRoots.filter { state.resolvedRoots[$0] != resolved[$0] }
        // A root switched to another release is swapped in whole, its large files too.
        var reading = Reading(
            confinement: allowsSymlinksOutsideRoots ? nil : zip(roots, resolved).map { $1 ?? $0 },
            background: waitingForParses || !repointed.isEmpty ? nil : background.withLock { $0 })
        for path in targets {
            for (filePath, outcome) in reread(path, in: state, reading: &reading) {
                touched[filePath] = outcome
            }
        }
        for path in reading.parsing { touched[path] = nil }  // its last table stays meanwhile
        for index in wholeRoots { state.resolvedRoots[index] = resolved[index] }
        holdVanishedFiles(&touched, except: repointed, state: &state, reading: &reading)
        let rootErrorsBefore = state.rootErrors
        keepRootsThatWouldBeLeftEmpty(&touched, wholeRoots: wholeRoots, resolved: resolved, state: &state)
        var affected = Set<TableChange>()
        var anyFileChanged = false
        for (path, outcome) in touched {
            let old = state.files[path]
            if let outcome, let old, outcome.fingerprint == old.fingerprint, outcome.file == old.file {
                state.files[path]?.read = max(old.read, outcome.read)
                continue  // same bytes: nothing to do
            }
            anyFileChanged = true
            if let old { affected.formUnion(pairs(of: old)) }
            if var outcome {
                parsed += 1
                if outcome.content == nil, let error = outcome.error {
                    newErrors.append(error)
                    let keepsOld = old?.file == outcome.file
                    outcome.content = keepsOld ? old?.content : nil
                    if outcome.content == nil { unservedErrorFiles.insert(outcome.file.path) }
                    // What the kept table was read from: an emptied file is still held.
                    outcome.byteCount = keepsOld ? old?.byteCount ?? 0 : 0
                } else {
                    // A file that had keys now cleared (0 bytes, or only a newline, a BOM, comments).
                    if let blank = outcome.blank, let old, old.file == outcome.file, old.content != nil,
                        old.blank == nil, old.byteCount > 0
                    {
                        outcome.lostEntries.append(
                            emptied(outcome.file.path, holding: blank, bytes: outcome.byteCount, had: old.byteCount))
                    }
                    // Each said once: not again when a later save loses the same entry.
                    newLostEntries += outcome.lostEntries.filter { !(old?.lostEntries.contains($0) ?? false) }
                }
                affected.formUnion(pairs(of: outcome))
                state.files[path] = outcome
                state.paths.insert(path)
            } else {
                state.files[path] = nil
                state.paths.remove(path)
            }
        }
        let (changes, failures) = rebuild(affected, in: &state)
        newErrors += failures.map(Self.error)
        // New source languages change answers too: a new generation, though no segment changed.
        let sourcesChanged = anyFileChanged && keepSourceLanguagesCurrent(&state)
        if !changes.isEmpty || sourcesChanged || state.generation == 0 {
            state.generation += 1
        }
        let publishes =
            anyFileChanged || changes.isEmpty == false || current.withLock({ $0.generation }) != state.generation
            || rootErrorsBefore != state.rootErrors
        let summary = ChangeSummary(
            generation: state.generation, changes: changes.sorted(), filesParsed: parsed, newErrors: newErrors,
            unservedErrorFiles: unservedErrorFiles, heldFiles: reading.heldFiles.sorted(),
            newLostEntries: newLostEntries,
            newRootErrors: state.rootErrors.filter { rootErrorsBefore[$0.key] != $0.value }.map(\.value).sorted {
                $0.description < $1.description
            })
        return (summary, publishes)
    }

    /// Rebuilds the segments of the `affected` pairs from the files of their tables (String
    /// Catalogs included), sharing every other segment: the pairs whose segments changed,
    /// and the segments that could not be built (each keeps its last segment, and is
    /// listed until a build of it succeeds).
    private func rebuild(_ affected: Set<TableChange>, in state: inout State) -> (
        changes: [TableChange], failures: [SegmentBuildError]
    ) {
        guard !affected.isEmpty else { return ([], []) }
        let keys = Set(affected.map { SegmentKey(language: $0.language, table: $0.table) })
        let tables = Set(affected.map(\.table))
        let sources = state.files.values.compactMap { loaded -> (file: ResourceFile, content: SegmentSource)? in
            guard tables.contains(loaded.file.table), let content = loaded.content else { return nil }
            return (loaded.file, content)
        }
        let (segments, changed, failures) = state.segments.rebuilding(keys, from: sources)
        state.segments = segments
        for key in keys { state.buildFailures[key] = nil }
        for failure in failures {
            state.buildFailures[SegmentKey(language: failure.language, table: failure.table)] = failure
        }
        return (changed.map { TableChange(language: $0.language, table: $0.table) }.sorted(), failures)
    }

    /// Keeps the tables' String Catalog source languages current: a catalog's
    /// `sourceLanguage` is its keys' fallback (docs/LOOKUP.md). Only the String Catalogs are
    /// looked at: sorting every file per refresh would cost all files. Whether they changed.
    private func keepSourceLanguagesCurrent(_ state: inout State) -> Bool {
        let sources = ResourceCatalog.sourceLanguages(
            ofWritten: state.files.values.compactMap { loaded -> (file: ResourceFile, sourceLanguage: String?)? in
                guard case .catalog(let catalog)? = loaded.content else { return nil }
                return (loaded.file, catalog.sourceLanguage)
            })
        guard sources != state.segments.sourceLanguages else { return false }
        state.segments = state.segments.replacingSourceLanguages(sources)
        return true
    }

    /// A segment that could not be built, as `status` lists it: named `language/table`.
    static func error(_ failure: SegmentBuildError) -> ResourceParseError {
        .unreadable("\(failure.language)/\(failure.table)", reason: "its segment cannot be built: \(failure.error)")
    }

    /// Keeps each known file found gone until it has been gone for ``holdGrace`` (listing it
    /// in `heldFiles`), and forgets when a file was found gone once it is there again; one
    /// that is there again already (its directory renamed away and back while it was being
    /// listed) is read again on its own. Not in roots that were re-pointed: the old
    /// release's files go with it, in one step.
    ///
    /// Gone throughout, not gone at two looks: a directory renamed away and back in a loop
    /// is gone a fraction of the time, and on a loaded machine two looks a grace apart can
    /// both land in that fraction. So the grace starts again whenever the nearest directory
    /// still there changed between two looks (its entries did: the file may have been back
    /// in between), and one more look a moment later comes before anything is dropped.
    private func holdVanishedFiles(
        _ touched: inout [String: LoadedFile?], except repointed: Set<Int>, state: inout State, reading: inout Reading
    ) {
        let now = ContinuousClock.now
        var graceOver: [String: DirectoryStamp?] = [:]
        for (path, outcome) in touched {
            guard outcome == nil, let known = state.files[path], !repointed.contains(known.file.rootIndex) else {
                state.vanishedSince[path] = nil
                continue
            }
            if rereadIfBack(path, &touched, state: &state, reading: &reading) { continue }
            let around = DirectoryStamp(nearest: path)
            let seen = state.vanishedSince[path]
            let since = seen.map { $0.around == around ? $0.since : now } ?? now
            if now - since >= holdGrace {
                graceOver[path] = around
            } else {
                state.vanishedSince[path] = (since, around)
                touched[path] = nil  // untouched: the last table stays
                reading.heldFiles.append(path)
            }
        }
        guard !graceOver.isEmpty else { return }
        usleep(Self.lastLookDelayMicroseconds)
        for (path, around) in graceOver where !rereadIfBack(path, &touched, state: &state, reading: &reading) {
            guard DirectoryStamp(nearest: path) == around else {
                state.vanishedSince[path] = (now, around)
                touched[path] = nil
                reading.heldFiles.append(path)
                continue
            }
            state.vanishedSince[path] = nil
        }
    }

    /// How long the last look before a drop waits (``holdVanishedFiles(_:except:state:reading:)``).
    static let lastLookDelayMicroseconds: UInt32 = 10_000

    /// Reads `path` again when it exists after all, putting the outcome in `touched`; whether
    /// it did. A file back already had its directory renamed away while it was listed and
    /// back before this check (a deployment's rename pair, repeated). One there but not read
    /// as a table (gone again at the read, in the next rename pair; a link now leading out of
    /// the roots) is not back: it is held like a gone file, and goes when its grace is over.
    private func rereadIfBack(
        _ path: String, _ touched: inout [String: LoadedFile?], state: inout State, reading: inout Reading
    ) -> Bool {
        guard Self.exists(path), let again = reread(path, in: state, reading: &reading)[path], let again else {
            return false
        }
        state.vanishedSince[path] = nil
        touched[path] = .some(again)
        return true
    }

    /// The paths to read: `paths`, except that a path under a root that resolves elsewhere
    /// than when it was last read, or whose last tables were kept, is replaced by the whole
    /// root, so its old files are dropped and its new ones read in the same refresh.
    private func targets(_ paths: [String], resolved: [String?], state: State) -> Set<String> {
        Set(
            paths.map(normalised).map { path in
                guard let index = rootIndex(of: path),
                    resolved[index] != state.resolvedRoots[index] || state.rootErrors[index] != nil
                else { return path }
                return roots[index]
            })
    }

    /// Whether reading `path` reads all of root `index` (it is the root, or above it).
    private func covers(_ path: String, root index: Int) -> Bool {
        path == roots[index] || roots[index].hasPrefix(path == "/" ? "/" : path + "/")
    }

    /// Keeps the files of every root the refresh would leave with none — a root that resolves
    /// to nothing, was emptied, or holds no language — and records why for `status`; clears
    /// the record of every root read whole that holds files again.
    private func keepRootsThatWouldBeLeftEmpty(
        _ touched: inout [String: LoadedFile?], wholeRoots: Set<Int>, resolved: [String?], state: inout State
    ) {
        var checked = wholeRoots
        for (path, outcome) in touched where outcome == nil {
            if let index = state.files[path]?.file.rootIndex { checked.insert(index) }
        }
        guard !checked.isEmpty else { return }
        var remaining: [Int: Int] = [:]
        for (path, loaded) in state.files where checked.contains(loaded.file.rootIndex) && touched[path] == nil {
            remaining[loaded.file.rootIndex, default: 0] += 1
        }
        var before: [Int: Int] = [:]
        for loaded in state.files.values where checked.contains(loaded.file.rootIndex) {
            before[loaded.file.rootIndex, default: 0] += 1
        }
        for case let outcome? in touched.values where checked.contains(outcome.file.rootIndex) {
            remaining[outcome.file.rootIndex, default: 0] += 1
        }
        for index in checked.sorted() {
            if remaining[index, default: 0] > 0 {
                state.rootErrors[index] = nil
                continue
            }
            let kept = before[index, default: 0] > 0
            if kept {
                touched = touched.filter { path, outcome in
                    (outcome?.file ?? state.files[path]?.file)?.rootIndex != index
                }
            }
            state.rootErrors[index] = rootError(index, isResolved: resolved[index] != nil, kept: kept)
        }
    }

    /// Why root `index` serves nothing new, for `status` and the log.
    private func rootError(_ index: Int, isResolved: Bool, kept: Bool) -> ResourceParseError {
        var isDirectory: ObjCBool = false
        let exists = isResolved && FileManager.default.fileExists(atPath: roots[index], isDirectory: &isDirectory)
        let denied = ResourceRootProblem.missing(in: [roots[index]]).first == .permissionDenied(roots[index])
        var message =
            denied
            ? "the resource directory cannot be reached: permission denied (\(ResourceRootProblem.permissionHint))"
            : !exists
                ? "the resource directory does not exist, or a link to it leads nowhere"
                : isDirectory.boolValue
                    ? "the resource directory holds no language (no .lproj directory, no String Catalog)"
                    : "the resource root is not a directory (give the directory that holds the xx.lproj folders)"
        if kept { message += "; the tables last read from it are still served" }
        return ResourceParseError(location: SourceLocation(file: roots[index], line: 1, column: 1), message: message)
    }

    /// `problem`, an entry left out of a file whose other entries are served, marked as one
    /// (a rule; a whole file's error has none): status and watch tell the two apart.
    /// A `.strings` file with content that is now 0 bytes, past ``holdGrace``: served as
    /// Foundation reads it, a table with no keys, and said, as a truncated save or a failed
    /// tool most often leaves it (listed in `status` beside the file until it has content).
    /// The warning for a file that had keys and now holds `blank` (`bytes` of it): a 0-byte
    /// one was held for the grace first; one left with only a newline, a BOM or comments is not.
    private func emptied(_ path: String, holding blank: String, bytes: Int, had byteCount: Int) -> ResourceParseError {
        let served =
            "served as a table with no keys, as Foundation reads it, so its keys fall back; if a save or a tool "
        var problem = ResourceParseError(
            location: SourceLocation(file: path, line: 1, column: 1),
            message: bytes == 0
                ? "the file is now empty (0 bytes; it had \(byteCount)): after \(holdGrace) with its last table, it is "
                    + served + "truncated it, restore it"
                : "the file now holds no entries (\(blank); it had \(byteCount)): it is " + served
                    + "cleared it, restore it")
        problem.rule = .emptyFile
        return problem
    }

    private static func leftOut(_ problem: ResourceParseError) -> ResourceParseError {
        var problem = problem
        problem.rule = problem.rule ?? .badEntry
        return problem
    }

    /// Swaps in the snapshot `state` describes.
    private func publish(_ state: State) {
        let fileErrors = state.files.values.flatMap { [$0.error].compactMap { $0 } + $0.lostEntries }
        let errors = (fileErrors + state.rootErrors.values + state.buildFailures.values.map(Self.error)).sorted {
            $0.description < $1.description
        }
        let snapshot = ResourceSnapshot(
            generation: state.generation, segments: state.segments, errors: errors,
            fileCount: state.files.count)
        current.withLock { $0 = snapshot }
    }

    /// The outcome for every file at or below `path`: a loaded file, or `nil` when gone.
    /// A path above some roots (`/` for a root `/srv/l10n`) re-reads those roots; a path
    /// outside every root reads nothing.
    ///
    /// What cannot be looked at is not taken for gone: the files known in a directory that
    /// cannot be listed keep their tables, and a file whose directory may not be searched
    /// keeps its table with the reason listed. Costs the files at or below `path`, not every
    /// file known.
    private func reread(_ path: String, in state: State, reading: inout Reading) -> [String: LoadedFile?] {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard let rootIndex = rootIndex(of: path) else {
            var outcomes: [String: LoadedFile?] = [:]
            for root in roots where root.hasPrefix(prefix) {
                outcomes.merge(reread(root, in: state, reading: &reading)) { _, new in new }
            }
            return outcomes
        }
        let known = state.files
        var outcomes: [String: LoadedFile?] = [:]
        for knownPath in state.paths.paths(atOrBelow: path) {
            outcomes[knownPath] = .some(nil)
        }
        let confinement = reading.confinement
        // A link out of the roots is not read; within them, the scanner cuts loops.
        let confined = confinement.map { ResourceScanner.isInside(path, realRoots: $0) } ?? true
        let presence = Self.presence(of: path)
        let file = ResourceFile(path: path, rootIndex: rootIndex)
        var unlistable: [String] = []
        if presence == .directory, file == nil, confined {
            let survey = ResourceScanner.survey(
                directory: path, depth: ResourceScanner.depth(of: path, below: roots[rootIndex]),
                rootIndex: rootIndex, confinedTo: confinement)
            unlistable = survey.unlistable
            for file in survey.files {
                outcomes[file.path] = load(file, known: known[file.path], reading: &reading)
            }
        } else if let file, presence != .absent, confined {
            // Also a directory named like a table, or a link that leads nowhere or loops: it
            // is reported by `load` rather than silently taken for a vanished file.
            outcomes[path] = load(file, known: known[path], reading: &reading)
        }
        for (knownPath, outcome) in outcomes where outcome == nil {
            guard let loaded = known[knownPath], let reason = Self.whyPresenceIsUnknown(knownPath) else { continue }
            // Not found, but not gone either (a directory on the way may not be searched):
            // the file keeps its last good table, with the reason listed.
            let error = ResourceParseError.unreadable(knownPath, reason: reason)
            outcomes[knownPath] = LoadedFile(
                file: loaded.file, fingerprint: reason.hashValue, content: nil, error: error)
        }
        // A directory that cannot be listed is not an empty one: what was read from it stays.
        for directory in unlistable {
            for kept in state.paths.paths(atOrBelow: directory) {
                if case .some(.none) = outcomes[kept] { outcomes[kept] = nil }
            }
        }
        return outcomes
    }

    /// Reads and parses one file; `nil` when it is gone. Bytes that `known` was loaded
    /// from are not parsed again: `known` is the outcome.
    ///
    /// A file that is there but cannot be read (permission denied, a directory, a link
    /// loop) is an error, listed in `status` like a parse error, and keeps its last good
    /// table: a `chmod` or a botched deployment must not silently drop a language. A file
    /// found empty where it had content, changed within ``holdGrace``, is held: `known`
    /// is the outcome.
    private func load(_ file: ResourceFile, known: LoadedFile?, reading: inout Reading) -> LoadedFile? {
        let read = reads.add(1, ordering: .relaxed).newValue
        let bytes: [UInt8]
        // The read's buffer is the file's size: a large file is read only when it and its
        // parse fit (``ParseMemory``), else it keeps its last good table, with the error.
        var info = stat()
        let size = stat(file.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
        let stamp = size > 0 ? FileStamp(settled: info) : nil
        // The parse finished apart is of the bytes there when the file is as it was read:
        // not read again (twice the file's memory, and the time).
        if let stamp, let background = reading.background, size >= background.minimumBytes,
            var finished = background.finishedParse(of: file.path), finished.file == file, finished.stamp == stamp
        {
            finished.read = read
            return finished
        }
        let outcome = ParseMemory.whenRoom(toRead: min(size, maximumFileBytes), as: file.kind) {
            ResourceFileReader.read(file.path, maximumBytes: maximumFileBytes)
        }
        switch outcome {
        case .failure(let memory):
            // Not the bytes' fingerprint: the next look at the file tries again.
            let error = ResourceParseError.unreadable(file.path, reason: memory.reason)
            return LoadedFile(file: file, fingerprint: memory.reason.hashValue, content: nil, error: error, read: read)
        case .success(.bytes(let got)): bytes = got
        case .success(.gone): return nil
        case .success(.failed(let problem)):
            let error = ResourceParseError.unreadable(file.path, reason: problem)
            return LoadedFile(file: file, fingerprint: problem.hashValue, content: nil, error: error, read: read)
        }
        if bytes.isEmpty, let known, known.file == file, known.content != nil, known.byteCount > 0,
            Self.isOpenForWriting(file.path) || Self.wasChanged(file.path, within: holdGrace)
        {
            reading.heldFiles.append(file.path)
            return known
        }
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        let job = BackgroundParses.Job(
            file: file, fingerprint: hasher.finalize(), read: read, bytes: bytes, stamp: stamp)
        if var known, known.file == file, known.fingerprint == job.fingerprint {
            known.read = read
            return known
        }
        guard let background = reading.background, bytes.count >= background.minimumBytes else {
            return Self.parse(job)
        }
        if var finished = background.finished(after: job), finished.file == file {
            if finished.fingerprint == job.fingerprint {
                finished.read = read
                return finished
            }
            // Older than the bytes there (being parsed now), newer than the table served.
            if finished.read > known?.read ?? 0 { return finished }
        }
        reading.parsing.append(file.path)
        return known
    }

    /// The outcome of parsing `job`'s bytes; an "out of memory" error, the parse not even
    /// started, when it would not fit in what the process may still get (``ParseMemory``).
    private static func parse(_ job: BackgroundParses.Job) -> LoadedFile {
        let (file, bytes) = (job.file, job.bytes)
        let parsed = ParseMemory.whenRoom(toParse: bytes, as: file.kind) {
            () -> LoadedFile in
            do throws(ResourceParseError) {
                let (content, problems) = try SegmentSource.read(bytes, kind: file.kind, file: file.path)
                var blank: String? = nil
                if case .strings(let table) = content { blank = table.blankContent(of: bytes) }
                return LoadedFile(
                    file: file, fingerprint: job.fingerprint, content: content, error: nil,
                    lostEntries: problems.filter(\.isEntryLost).map(Self.leftOut), byteCount: bytes.count,
                    blank: blank, read: job.read, stamp: job.stamp)
            } catch {
                return LoadedFile(file: file, fingerprint: job.fingerprint, content: nil, error: error, read: job.read)
            }
        }
        switch parsed {
        case .success(let loaded): return loaded
        case .failure(let memory):
            // Not the bytes' fingerprint: the next read of the same bytes tries again.
            let error = ResourceParseError.unreadable(file.path, reason: memory.reason)
            return LoadedFile(
                file: file, fingerprint: memory.reason.hashValue, content: nil, error: error, read: job.read)
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

    /// The nearest directory at or above a path that is there, as it is now: which one, its
    /// inode and its change time, which moves whenever an entry in it is added, removed or
    /// renamed (and cannot be set back, unlike the modification time).
    struct DirectoryStamp: Equatable {
        var path: Substring
        var inode: UInt
        var changed: [Int]

        init?(nearest path: String) {
            var directory = Substring(path)
            var info = stat()
            repeat {
                guard let slash = directory.lastIndex(of: "/") else { return nil }
                directory = slash == directory.startIndex ? "/" : directory[..<slash]
            } while lstat(String(directory), &info) != 0 && directory != "/"
            (self.path, inode, changed) = (directory, UInt(info.st_ino), [info.st_ctim.tv_sec, info.st_ctim.tv_nsec])
        }
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

    /// Whether anything is at `path`, a link that leads nowhere included.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Why it cannot be told whether something is at `path` (`EACCES` on a directory on the
    /// way); `nil` when it can: it is there, or the system says it is gone.
    private static func whyPresenceIsUnknown(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) != 0, errno != ENOENT, errno != ENOTDIR else { return nil }
        return String(cString: strerror(errno))
    }

    /// Whether the inode at `path` changed (written, truncated, renamed, its mode changed)
    /// less than `interval` ago, by its `ctime`, which no one can set back.
    private static func wasChanged(_ path: String, within interval: Duration) -> Bool {
        var info = stat()
        var now = timespec()
        guard stat(path, &info) == 0, clock_gettime(CLOCK_REALTIME, &now) == 0 else { return false }
        let changed = Duration.seconds(info.st_ctim.tv_sec) + .nanoseconds(info.st_ctim.tv_nsec)
        return Duration.seconds(now.tv_sec) + .nanoseconds(now.tv_nsec) - changed < interval
    }

    /// Whether some process has the file at `path` open for writing, as far as the daemon
    /// can tell: a read lease (`F_SETLEASE`) is refused with `EAGAIN` exactly then. Taking
    /// one needs the file's owner or `CAP_LEASE`; without, nothing can be told (false), and
    /// the change time alone decides. The inotify events that say so may lag behind on a
    /// loaded machine; the kernel's answer does not.
    ///
    /// The lease is released at once. A writer that opens the file in that instant waits
    /// for the release, and the kernel signals the lease holder: with `SIGURG`, ignored by
    /// default, rather than `SIGIO`, which would end the daemon.
    private static func isOpenForWriting(_ path: String) -> Bool {
        // F_SETLEASE and F_SETSIG (F_LINUX_SPECIFIC_BASE and 10), which Glibc's module leaves out.
        let setLease: Int32 = 1024
        let setSignal: Int32 = 10
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else { return false }
        let file = FileDescriptor(adopting: opened)
        guard fcntl(file.rawValue, setSignal, SIGURG) == 0 else { return false }
        if fcntl(file.rawValue, setLease, Int32(F_RDLCK)) == 0 {
            _ = fcntl(file.rawValue, setLease, Int32(F_UNLCK))
            return false
        }
        return errno == EAGAIN
    }

    /// `path` with every link resolved; `nil` when it leads nowhere.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The index of the root `path` lies under, or `nil` when it is outside every root.
    private func rootIndex(of path: String) -> Int? {
        roots.indices.first { path == roots[$0] || path.hasPrefix(roots[$0] == "/" ? "/" : roots[$0] + "/") }
    }

    private func normalised(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
