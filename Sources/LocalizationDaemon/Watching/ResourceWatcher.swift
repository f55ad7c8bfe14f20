import Dispatch
import Foundation
package import LocalizationCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches resource directories and reports, after each burst of activity settles, which
/// resource files and directories may have changed.
///
/// Under each root it watches the root itself, every directory on the way down, and every
/// `*.lproj` directory — exactly the directories the store reads, by the one rule of
/// ``LocalizationCore/ResourceScanner/entersSubdirectories(of:atDepth:)`` (not below an
/// `.lproj`, at most 32 levels deep) — so a new `.lproj` or `.xcstrings` anywhere is
/// noticed. A directory it cannot watch (too deep, permission denied, the watch limit) is
/// listed in ``Statistics/unwatched`` with the reason, retried with backoff and, when it can
/// be listed, polled (see ``UnwatchedDirectories``); it never causes a full rescan.
///
/// Hidden names are neither watched nor reported (Kubernetes' `..2026_…` data directories,
/// `.git`, rsync's `.~tmp~`), but a change of a directory's `..data` link re-resolves
/// everything reached through that directory. Symlinks are followed, within the depth rule,
/// with cycles cut, and — unless allowed — only when they stay inside a root. A new
/// directory is watched first and scanned second, so files that land in it before the
/// watch exists are still reported. A directory whose file system is unmounted keeps its
/// tables (it is not reported) and is looked for again, like a missing root, until a mount
/// there lists something. A file system mounted over a root or a directory below one (or
/// taken away from it) is seen in the mount table, which inotify does not report
/// (``MountTable``): what it covers is walked, watched and read again. A file whose edits
/// no watched directory hears — hard-linked, or mounted on its own — is read under every
/// name when one is reported, and stat-ed every second; every other resource file is
/// stat-ed every 5 seconds for a link made outside the roots, which no event reports
/// (``PolledFiles``).
///
/// Everything runs on the watcher's serial queue, and `onChange` is called there.
///
/// ```swift
/// let watcher = ResourceWatcher(roots: ["/srv/l10n/Resources"]) { batch in
///     _ = batch.fullRescan ? store.rescan() : store.refresh(paths: batch.files + batch.directories)
/// }
/// try watcher.start()   // watches are in place when this returns: load files now
/// ```
package final class ResourceWatcher: @unchecked Sendable {
    // @unchecked: every mutable property below is touched only on `queue` (checked by
    // dispatchPrecondition where work arrives on it: events, timers, the debouncer's
    // batches); the public methods hop onto it, and `statistics` lives in a Mutex of its own.

    /// Tuning knobs, with the defaults the daemon uses.
    package struct Options: Sendable, Hashable {
        /// How long the directories must be quiet before a batch is delivered.
        package var settle: Duration
        /// The longest a change waits for the directories to become quiet.
        package var maximumDelay: Duration
        /// Whether a symlinked directory may lead outside every root.
        package var allowSymlinksOutsideRoots: Bool
        /// How often a missing root is looked for again, while one is missing.
        package var missingRootCheckInterval: Duration
        /// How long a file that is gone when its batch settles is held back, in case an
        /// editor's second rename is late (see ``ChangeDebouncer``).
        package var vanishGrace: Duration

        /// Creates options; the defaults are a 20 ms settle window, at most 1 s delay, a
        /// 250 ms grace for a vanished file.
        package init(
            settle: Duration = .milliseconds(20),
            maximumDelay: Duration = .seconds(1),
            allowSymlinksOutsideRoots: Bool = false,
            missingRootCheckInterval: Duration = .seconds(1),
            vanishGrace: Duration = .milliseconds(250)
        ) {
            self.settle = settle
            self.maximumDelay = maximumDelay
            self.allowSymlinksOutsideRoots = allowSymlinksOutsideRoots
            self.missingRootCheckInterval = missingRootCheckInterval
            self.vanishGrace = vanishGrace
        }
    }

    /// Counters for `status` and `STATUS=` lines.
    package struct Statistics: Sendable, Hashable {
        /// Events received from the source.
        package var events = 0
        /// Batches delivered to `onChange`.
        package var batches = 0
        /// Full rescans performed (overflow, unknown watch, explicit); a failed watch is
        /// retried on its own instead.
        package var rescans = 0
        /// Kernel queue overflows seen.
        package var overflows = 0
        /// Directories currently watched (distinct watch descriptors).
        package var watchCount = 0
        /// The most recent problem, for the operator: a failed watch, a missing root. Nil
        /// again once that problem is over (the root back, the directory watched again).
        package var lastError: String?
        /// The last ``lastError`` that is over, with when it ended: the record of a root that
        /// was missing for a while, no longer a current problem.
        package var resolvedError: String?
        /// Roots that cannot be read now, sorted by path, each with why, as looked at every
        /// second while there are any: `.missing` (absent, or its file system unmounted),
        /// `.notADirectory` (a file in the way), `.permissionDenied` (behind a directory this
        /// user may not enter: it may exist).
        package var rootProblems: [ResourceRootProblem] = []
        /// The paths of ``rootProblems``.
        package var missingRoots: [String] { rootProblems.map(\.path) }
        /// Of ``missingRoots``, those that exist but are not directories (a file in the way).
        package var notDirectoryRoots: [String] { rootProblems.filter { $0 == .notADirectory($0.path) }.map(\.path) }
        /// Of ``missingRoots``, those this user may not reach (`EACCES`): they may exist.
        package var permissionDeniedRoots: [String] {
            rootProblems.filter { $0 == .permissionDenied($0.path) }.map(\.path)
        }
        /// Of ``missingRoots``, those that do not exist.
        package var absentRoots: [String] { rootProblems.filter { $0 == .missing($0.path) }.map(\.path) }
        /// Directories read but not watched, with the reason, sorted by path: at most
        /// ``maximumListedUnwatched`` of them; `unwatchedCount` has them all.
        package var unwatched: [UnwatchedDirectory] = []
        /// How many directories are not watched.
        package var unwatchedCount = 0
        /// Polls of unwatched directories that found a change.
        package var polledChanges = 0
        /// Resource files stat-ed on a timer because inotify may not report their edits: hard
        /// links and files mounted on their own (``PolledFiles``).
        package var polledFiles = 0

        /// Creates zeroed counters.
        package init() {}
    }

    private struct WatchedPath {
        var watch: WatchDescriptor
        var depth: Int
    }

    /// Changes found while handling one delivery, before they go to the debouncer.
    private struct PendingChange {
        var files: Set<String> = []
        var directories: Set<String> = []
        var fullRescan = false
        var reasons: [String] = []

        mutating func requestFullRescan(_ reason: String) {
            fullRescan = true
            reasons.append(reason)
        }
    }

    private struct InodeID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// At most this many unwatched directories are listed in ``Statistics/unwatched``.
    package static let maximumListedUnwatched = 100

    private let roots: [String]
    /// The roots with every link resolved, as of the last time a root was looked at; a root
    /// that resolves to nothing keeps its path.
    private var realRoots: [String]
    private let source: any FileSystemEventSource
    private let options: Options
    private let onChange: @Sendable (ChangeBatch) -> Void
    private let log: @Sendable (LogLevel, String) -> Void
    private let queue = DispatchQueue(label: "l10nd.resource-watcher")
    private let counters = Mutex(Statistics())
    private var debouncer: ChangeDebouncer!
    private var watchedPaths: [String: WatchedPath] = [:]
    /// The keys of `watchedPaths`, to find those under a directory without looking at all.
    private var watchedTree = PathTree()
    private var pathsByWatch: [WatchDescriptor: Set<String>] = [:]
    private var unwatched = UnwatchedDirectories()
    private var retryTimer: (any DispatchSourceTimer)?
    private var pollTimer: (any DispatchSourceTimer)?
    /// Says a burst of newly unwatched directories in a line or two (``UnwatchedLog``). Locked,
    /// not confined to the queue: ``flushLog()`` says what it holds from the daemon's stop,
    /// which must not wait for the queue (it may be in a long rescan).
    private let unwatchedLog = Mutex(UnwatchedLog())
    /// Fires when ``unwatchedLog``'s window ends.
    private var unwatchedLogTimer: (any DispatchSourceTimer)?
    /// Watches given up on, whose `.watchRemoved` has not arrived yet: their late events are expected.
    private var retiredWatches: Set<WatchDescriptor> = []
    private var running = false
    /// Roots that are not there: nothing inotify watches can tell of their return, so
    /// `rootCheck` looks for them every `missingRootCheckInterval` while there are any.
    private var missingRoots: Set<String> = []
    /// Directories whose file system was unmounted (or whose watch the kernel dropped), with
    /// their depth: the mount point left behind is an empty directory that no watch on it
    /// will hear remounted, so `rootCheck` looks at them too, until they hold something.
    private var unmountedDirectories: [String: Int] = [:]
    private var rootCheck: (any DispatchSourceTimer)?
    /// The directories holding the roots, watched for the roots' own names only (not
    /// scanned, not descended), so a root re-pointed, replaced or re-created is seen at once.
    private var rootParents: [WatchDescriptor: String] = [:]
    /// Resource files created or modified and not yet closed: someone is still writing them.
    private var filesBeingWritten: Set<String> = []
    /// The process's mounts when last looked at, and the subscription that says when they change.
    private var mounts: Set<MountEntry> = []
    private var mountSubscription: Int?
    /// Hard-linked and separately mounted resource files, whose edits inotify may not report.
    private var polledFiles = PolledFiles()
    /// The path ``Statistics/lastError`` is about, when it is about one that can recover.
    private var lastErrorSubject: String?
    private var filePollTimer: (any DispatchSourceTimer)?
    /// Looks for a new link on every resource file with one (``PolledFiles/sweep()``).
    private var linkSweepTimer: (any DispatchSourceTimer)?

    /// Creates a watcher over `roots`; nothing is watched until `start()`.
    ///
    /// - Parameters:
    ///   - roots: Resource directories; relative paths are taken from the current directory.
    ///   - source: Where events come from; the real inotify backend unless a test passes a fake.
    ///   - options: Settle window and limits.
    ///   - log: Told once when a directory stops being watched and once when it is again.
    ///   - onChange: Called on the watcher's queue with each settled batch.
    package init(
        roots: [String],
        source: any FileSystemEventSource = InotifyEventSource(),
        options: Options = Options(),
        log: @escaping @Sendable (LogLevel, String) -> Void = { _, _ in },
        onChange: @escaping @Sendable (ChangeBatch) -> Void
    ) {
        let standardized = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.roots = standardized
        self.realRoots = standardized.map { Self.realPath($0) ?? $0 }
        self.source = source
        self.options = options
        self.log = log
        self.onChange = onChange
        self.debouncer = ChangeDebouncer(
            queue: queue, settle: options.settle, maximumDelay: options.maximumDelay, vanishGrace: options.vanishGrace,
            isBeingWritten: { [weak self] path in self?.filesBeingWritten.contains(path) ?? false }
        ) { [weak self] batch in
            self?.deliver(batch)
        }
    }

    deinit {
        source.stop()
    }

    /// Starts the source and watches every directory that matters.
    ///
    /// Returns once the watches are in place, so files loaded after it returns cannot miss a
    /// change. No batch is delivered for what is already there. A missing root or a watch
    /// that could not be added is reported in `statistics.lastError`, not thrown.
    package func start() throws {
        try source.start { [weak self] events in
            guard let self else { return }
            queue.async { self.handle(events) }
        }
        queue.sync {
            running = true
            var change = PendingChange()
            for root in roots where !Self.isDirectory(root) {
                record(error: "\(ResourceRootProblem.missing(in: [root]).first ?? .missing(root))", about: root)
                missingRoots.insert(root)
            }
            mounts = MountTable.entries() ?? []
            polledFiles.updateMounts(mounts.map(\.path))
            walk(roots.filter { Self.isDirectory($0) }.map { ($0, 0) }, into: &change)
            // Not delivered (the caller loads what is there), but every name of a shared inode
            // must be known before its first edit.
            _ = notePolled(change.files)
            watchRootParents()
            updateWatchCount()
            updateRootCheck()
            updateUnwatched()
            mountSubscription = MountTable.shared.subscribe { [weak self] in
                guard let self else { return }
                queue.async { self.mountTableChanged() }
            }
        }
    }

    /// Re-establishes every watch and delivers a `fullRescan` batch right away, with pending changes.
    ///
    /// For SIGHUP and `l10nctl reload`: returns after `onChange` has handled the batch. Must
    /// not be called from `onChange` (it waits for the watcher's queue).
    package func rescan(reason: String = "reload requested") {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            guard running else { return }
            var change = PendingChange()
            change.requestFullRescan(reason)
            performFullRescan(into: &change)
            updateUnwatched()
            submit(change)
            debouncer.flush()
        }
    }

    /// Reports `files` again after the settle window, as if an event had named them, with
    /// the same holds: a file still being written waits for its close.
    ///
    /// For a consumer that held files back and reads them again later (the store's emptied
    /// files): going through the watcher, not around it, keeps the rule that a file someone
    /// is writing is not read.
    package func recheck(files: [String]) {
        queue.async { [self] in
            guard running else { return }
            debouncer.add(files: files, directories: [String](), fullRescan: false, reasons: [])
        }
    }

    /// Stops watching; pending changes are dropped and `onChange` is not called again.
    package func stop() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            running = false
            if let mountSubscription { MountTable.shared.unsubscribe(mountSubscription) }
            mountSubscription = nil
            debouncer.cancel()
            for timer in [rootCheck, retryTimer, pollTimer, filePollTimer, linkSweepTimer, unwatchedLogTimer] {
                timer?.cancel()
            }
            (rootCheck, retryTimer, pollTimer, filePollTimer, linkSweepTimer, unwatchedLogTimer) = (
                nil, nil, nil, nil, nil, nil
            )
            polledFiles.removeAll()
            flushLog()
            watchedPaths = [:]
            watchedTree = PathTree()
            pathsByWatch = [:]
            retiredWatches = []
            rootParents = [:]
            unmountedDirectories = [:]
            filesBeingWritten = []
            updateWatchCount()
        }
        source.stop()
    }

    /// The counters, readable from any thread.
    package var statistics: Statistics {
        counters.withLock { $0 }
    }

    /// Every directory path currently watched, sorted (for status output and tests).
    ///
    /// Must not be called from `onChange`.
    package var watchedDirectories: [String] {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return queue.sync { watchedPaths.keys.sorted() }
    }

    // MARK: - Events

    private func handle(_ events: [FileSystemEvent]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard running else { return }
        counters.withLock { $0.events += events.count }
        var change = PendingChange()
        for event in events {
            handle(event, into: &change)
        }
        if change.fullRescan {
            performFullRescan(into: &change)
        }
        updateWatchCount()
        updateUnwatched()
        submit(change)
    }

    private func handle(_ event: FileSystemEvent, into change: inout PendingChange) {
        if event.mask.contains(.queueOverflow) {
            counters.withLock { $0.overflows += 1 }
            change.requestFullRescan(event.message ?? "inotify queue overflow")
            return
        }
        if event.mask.contains(.needsRescan) {
            let reason = event.message ?? "the event source lost track"
            record(error: reason)
            change.requestFullRescan(reason)
            return
        }
        guard let watch = event.watch else { return }
        if let parent = rootParents[watch] {
            if event.mask.contains(.watchRemoved) { rootParents[watch] = nil }
            handleRootParent(event, in: parent, into: &change)
            if pathsByWatch[watch] == nil { return }
        }
        if event.mask.contains(.watchRemoved) {
            retiredWatches.remove(watch)
            for path in pathsByWatch.removeValue(forKey: watch) ?? [] where watchedPaths[path]?.watch == watch {
                // Dropped by the kernel, not by us: a root is looked for again like an unmounted one.
                if roots.contains(path) { lostMount(path, depth: 0) }
                watchedPaths[path] = nil
                watchedTree.remove(path)
                change.directories.insert(path)
            }
            return
        }
        guard let paths = pathsByWatch[watch] else {
            if !retiredWatches.contains(watch) {
                change.requestFullRescan("event for unknown \(watch)")
            }
            return
        }
        if event.name.isEmpty {
            if event.mask.contains(.unmounted) {
                for path in paths { unmounted(path) }
                return
            }
            // A root's own permissions changed (its parent is watched for names only, not for
            // what happens to files beside it): it may be readable again, or no more.
            if event.mask.contains(.attributesChanged) {
                for path in paths where roots.contains(path) { rootChanged(path, into: &change) }
                return
            }
            // About the watched directory itself: it went away or moved somewhere unknown.
            if !event.mask.intersection([.deletedSelf, .movedSelf]).isEmpty {
                for path in paths {
                    change.directories.insert(path)
                    // A deleted directory's watch is already gone in the kernel; only a moved
                    // one must be removed by hand.
                    forgetSubtree(path, removeFromSource: !event.mask.contains(.deletedSelf))
                    if roots.contains(path) { rootVanished(path, into: &change) }
                }
            }
            return
        }
        for directory in paths.sorted() {
            handle(event, named: event.name, in: directory, into: &change)
        }
    }

    private func handle(
        _ event: FileSystemEvent, named name: String, in directory: String, into change: inout PendingChange
    ) {
        let path = directory + "/" + name
        if EditorTempFiles.isAtomicSwapLink(name) {
            change.directories.insert(directory)
            rescanSubtree(directory, into: &change)
            return
        }
        if EditorTempFiles.isTemporary(name) { return }
        let mask = event.mask
        // A directory's attributes changing may be a chmod that makes it listable (again),
        // so it is scanned as if new.
        let isNew =
            !mask.intersection([.created, .movedTo]).isEmpty
            || mask.isSuperset(of: [.attributesChanged, .isDirectory])
        if name.contains("\u{FFFD}"), !FileManager.default.fileExists(atPath: path) {
            // Maybe a name that is not UTF-8, made or gone: the directory's list of them is taken again.
            let depth = watchedPaths[directory]?.depth ?? 0
            recordUndecodableNames(
                in: directory, names: [name], depth: depth,
                descend: ResourceScanner.entersSubdirectories(of: directory, atDepth: depth))
            if isNew { return }
        }
        if isNew, !Self.isLproj(directory), let skipped = Self.notALanguage(path, named: name) {
            unwatched.record(skipped, depth: (watchedPaths[directory]?.depth ?? 0) + 1, now: .now)
            return
        }
        if isNew, !Self.isLproj(directory), mask.contains(.isDirectory) || Self.isDirectory(path) {
            // As when scanning: no link out of the roots or back up them (a loop) is followed.
            guard isInsideRoots(path), !leadsBack(path, from: directory) else { return }
            // New directory (or a symlink to one): watch first, then scan.
            change.directories.insert(path)
            let parentDepth = watchedPaths[directory]?.depth ?? 0
            if ResourceScanner.entersSubdirectories(of: directory, atDepth: parentDepth) {
                rescanSubtree(path, depth: parentDepth + 1, into: &change)
            } else {
                recordTooDeep(path, depth: parentDepth + 1)
            }
            return
        }
        if !mask.intersection([.deleted, .movedFrom]).isEmpty,
            watchedTree.holdsAny(atOrBelow: path) || unwatched.contains(path)
        {
            change.directories.insert(path)
            forgetSubtree(path, removeFromSource: mask.contains(.movedFrom))
            forgetWriters(under: path)
            return
        }
        if EditorTempFiles.isResourceFile(name) {
            handleFileEvent(mask, at: path, into: &change)
        }
    }

    /// What an event on a resource file means for loading it: a file is read once it is
    /// complete — closed after writing, moved into place, or made as a link — never on a
    /// create or modify alone (docs/DAEMON.md, "When a file is read").
    private func handleFileEvent(_ mask: FileSystemEvent.Mask, at path: String, into change: inout PendingChange) {
        if !mask.intersection([.closedAfterWrite, .movedTo, .deleted, .movedFrom]).isEmpty {
            filesBeingWritten.remove(path)
            change.files.insert(path)
        } else if mask.contains(.created) {
            if Self.isCompleteWhenCreated(path) {
                change.files.insert(path)
            } else {
                filesBeingWritten.insert(path)
            }
        } else if mask.contains(.modified) {
            filesBeingWritten.insert(path)
        }
        // A permission change may make the file readable again; if it is being written,
        // the debouncer holds it until it is closed.
        if mask.contains(.attributesChanged) { change.files.insert(path) }
    }

    /// Files under `directory` are not being written any more as far as we know: it is gone,
    /// and with it the events that would have said when they were closed.
    private func forgetWriters(under directory: String) {
        let prefix = directory + "/"
        filesBeingWritten = filesBeingWritten.filter { !$0.hasPrefix(prefix) }
    }

    // MARK: - Roots

    /// Watches the directory holding each root, for the root's own name. Events there are
    /// the only news of a root link re-pointed (`ln -sfn`, `mv -T`) or of a root directory
    /// replaced: the root's own watch follows the old target and hears nothing of it.
    private func watchRootParents() {
        let names = Dictionary(grouping: roots, by: Self.parent).mapValues { Set($0.map(Self.name)) }
        var watched: [WatchDescriptor: String] = [:]
        for (parent, names) in names {
            // Unwatchable (no permission, no such directory): the missing-root check remains.
            if case .success(let watch) = source.addWatches([parent], interest: .names(names)).first {
                watched[watch] = parent
            }
        }
        for watch in rootParents.keys where watched[watch] == nil && pathsByWatch[watch] == nil {
            source.removeWatch(watch)
        }
        rootParents = watched
    }

    private func handleRootParent(_ event: FileSystemEvent, in parent: String, into change: inout PendingChange) {
        let relevant: FileSystemEvent.Mask = [.created, .movedTo, .deleted, .movedFrom]
        guard !event.name.isEmpty, !event.mask.intersection(relevant).isEmpty else { return }
        for root in roots where Self.parent(root) == parent && root.hasSuffix("/" + event.name) {
            rootChanged(root, into: &change)
        }
    }

    /// A root's name changed hands (a link re-pointed or replaced, a directory moved away or
    /// re-created), or its permissions changed: whatever it resolves to now is watched and
    /// read again from scratch, and the store swaps the whole root in one step. A root that
    /// resolves to nothing is missing; the store keeps its last tables.
    private func rootChanged(_ root: String, into change: inout PendingChange) {
        change.directories.insert(root)
        forgetWriters(under: root)
        resolveRoots()
        if Self.isDirectory(root) {
            missingRoots.remove(root)
            rescanSubtree(root, depth: 0, into: &change)
        } else {
            // The old target's watches would report its files as the root's.
            forgetSubtree(root, removeFromSource: true)
            record(
                error: "resource directory \(root) resolves to nothing; its last tables are served until it is back",
                about: root)
            missingRoots.insert(root)
        }
        updateRootCheck()
    }

    /// Resolves every root's links again: a re-pointed root confines links to its new target.
    private func resolveRoots() {
        realRoots = roots.map { Self.realPath($0) ?? $0 }
    }

    // MARK: - Scanning

    private func performFullRescan(into change: inout PendingChange) {
        counters.withLock { $0.rescans += 1 }
        change.directories.formUnion(roots)
        resolveRoots()
        filesBeingWritten = []
        watchRootParents()
        let existing = roots.filter { Self.isDirectory($0) }
        missingRoots = Set(roots).subtracting(existing)
        let seen = walk(existing.map { ($0, 0) }, into: &change)
        for path in watchedPaths.keys where !seen.contains(path) {
            unbindSubtree(path, removeFromSource: true)
        }
        unwatched.clearVanished()
        updateRootCheck()
    }

    /// A root's own watch reported it deleted or moved away. Its parent is not watched, so
    /// its return would go unnoticed: it is looked for on a timer until it is back. (Watching
    /// the parent instead would not do either: the parent may be deleted too.)
    private func rootVanished(_ root: String, into change: inout PendingChange) {
        if Self.isDirectory(root) {
            // Already back (deleted and re-created before this event was handled).
            rescanSubtree(root, depth: 0, into: &change)
            return
        }
        record(
            error: "resource directory \(root) was removed; its last tables are served until it is back", about: root)
        missingRoots.insert(root)
        updateRootCheck()
    }

    /// The file system holding `directory` was unmounted: the kernel has dropped the watches
    /// on it and below it, and the mount point left behind is another (empty) directory. Its
    /// tables are kept — the store is not told — and it is looked for on the missing-root
    /// timer until it holds something again, then walked and watched again.
    private func unmounted(_ directory: String) {
        let depth = watchedPaths[directory]?.depth ?? 0
        forgetSubtree(directory, removeFromSource: false)
        forgetWriters(under: directory)
        lostMount(directory, depth: depth)
    }

    private func lostMount(_ directory: String, depth: Int) {
        record(
            error: "\(directory) was unmounted; its last tables are served until it holds files again", about: directory
        )
        unmountedDirectories[directory] = depth
        updateRootCheck()
    }

    /// A file system was mounted or unmounted somewhere: one mounted over a root, over a
    /// directory above one or below one, hides what is watched there (the watches stay on
    /// the covered directories), and one taken away uncovers them. inotify says nothing of
    /// either, so what the mount covers is walked and watched again, and read.
    private func mountTableChanged() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard running else { return }
        guard let now = MountTable.entries() else {
            log(
                .warning,
                "cannot read /proc/self/mountinfo: this change of the mount table is looked at with the next one")
            return
        }
        // Mount points are real paths; roots may be links (`current -> releases/41`).
        let points = now.symmetricDifference(mounts).map(\.path)
        mounts = now
        polledFiles.updateMounts(now.map(\.path))
        var directories: [String: Int] = [:]
        for (root, real) in zip(roots, realRoots) where Self.isDirectory(root) {
            for point in points {
                if point == "/" || point == real || real.hasPrefix(point + "/") {
                    directories[root] = 0
                } else if point.hasPrefix(real + "/") {
                    // The nearest watched directory at or above the mount point.
                    var directory = root + point.dropFirst(real.count)
                    while watchedPaths[directory] == nil, directory.count > root.count {
                        directory = Self.parent(directory)
                    }
                    if let watched = watchedPaths[directory] { directories[directory] = watched.depth }
                }
            }
        }
        // A directory below another one read again is read with it.
        let outermost = directories.filter { path, _ in
            !directories.keys.contains { $0 != path && path.hasPrefix($0 + "/") }
        }
        guard !outermost.isEmpty else { return }
        log(.notice, "the mount table changed: reading \(outermost.keys.sorted().joined(separator: ", ")) again")
        var change = PendingChange()
        change.directories.formUnion(outermost.keys)
        rescanSubtrees(outermost.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, into: &change)
        updateWatchCount()
        updateUnwatched()
        submit(change)
    }

    /// Whether `directory` lists at least one entry: a remounted file system, not the empty
    /// mount point under it.
    private static func holdsEntries(_ directory: String) -> Bool {
        guard let listing = opendir(directory) else { return false }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return true }
        }
        return false
    }

    /// Starts the missing-root timer while a root is missing (or a directory unmounted),
    /// stops it when none is.
    private func updateRootCheck() {
        let missing = missingRoots.union(unmountedDirectories.keys.filter(roots.contains)).sorted()
        let problems = missing.map { ResourceRootProblem.missing(in: [$0]).first ?? .missing($0) }
        counters.withLock { $0.rootProblems = problems }
        if missing.isEmpty && unmountedDirectories.isEmpty {
            rootCheck?.cancel()
            rootCheck = nil
        } else if rootCheck == nil, running {
            rootCheck = DispatchSource.repeatingTimer(every: options.missingRootCheckInterval, queue: queue) {
                [weak self] in self?.checkMissingRoots()
            }
        }
    }

    /// Watches and scans every missing root that is back, and every unmounted directory
    /// that holds something again (remounted).
    private func checkMissingRoots() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard running else { return }
        var change = PendingChange()
        for (directory, depth) in unmountedDirectories.sorted(by: { $0.key < $1.key })
        where Self.holdsEntries(directory) {
            unmountedDirectories[directory] = nil
            change.directories.insert(directory)
            rescanSubtree(directory, depth: depth, into: &change)
        }
        for root in missingRoots.sorted() where Self.isDirectory(root) {
            missingRoots.remove(root)
            change.directories.insert(root)
            rescanSubtree(root, depth: 0, into: &change)
        }
        updateRootCheck()  // why a root is missing may change while it is
        guard !change.directories.isEmpty else { return }
        updateWatchCount()
        updateUnwatched()
        submit(change)
    }

    /// Walks `directory` again from scratch and forgets watched paths below it that are gone.
    private func rescanSubtree(_ directory: String, depth: Int? = nil, into change: inout PendingChange) {
        rescanSubtrees([(directory, depth ?? watchedPaths[directory]?.depth ?? 0)], into: &change)
    }

    /// ``rescanSubtree(_:depth:into:)`` for several directories in one walk: one request for
    /// the watches of each level, however many directories (thousands, when the watch limit
    /// is lifted).
    private func rescanSubtrees(_ directories: [(path: String, depth: Int)], into change: inout PendingChange) {
        let seen = walk(directories, into: &change)
        for directory in directories {
            for path in watchedTree.paths(atOrBelow: directory.path) where !seen.contains(path) {
                unbindSubtree(path, removeFromSource: true)
            }
        }
    }

    /// Watches then lists directories breadth first, one batch of watches per level.
    ///
    /// Reports every resource file found; returns every directory path now watched. A
    /// directory that cannot be watched or listed is recorded in `unwatched` (and still
    /// listed if it can be); one that can be both is cleared from it.
    @discardableResult
    private func walk(_ start: [(path: String, depth: Int)], into change: inout PendingChange) -> Set<String> {
        var seen: Set<String> = []
        var visited: Set<InodeID> = []
        var level = start
        while !level.isEmpty {
            let results = addWatches(level.map(\.path))
            var next: [(path: String, depth: Int)] = []
            for (entry, result) in zip(level, results) {
                var problem: UnwatchedDirectory?
                switch result {
                case .success(let watch):
                    bind(entry.path, to: watch, depth: entry.depth)
                    seen.insert(entry.path)
                case .failure(let error):
                    guard error.leavesDirectoryUnwatched else {
                        unwatched.clear(atOrBelow: entry.path)
                        continue
                    }
                    // Still listed below: its files are read now, and polled from now on.
                    problem = UnwatchedDirectory(
                        path: entry.path, reason: error.code, message: error.message, polled: true)
                }
                guard let identity = Self.inode(entry.path), visited.insert(identity).inserted else { continue }
                if let unlistable = scan(entry.path, depth: entry.depth, subdirectories: &next, into: &change) {
                    problem = unlistable
                }
                if let problem {
                    record(error: problem.message, about: entry.path)
                    unwatched.record(problem, depth: entry.depth, now: .now)
                } else {
                    unwatched.clear(entry.path)
                    resolved(entry.path)
                }
            }
            level = next
        }
        return seen
    }

    /// Watches `directories`, in order: an `.lproj` for everything (its files are read), any
    /// other only for what can add or take away a table (``WatchInterest/tree``), so writes
    /// of other files there are dropped before they cost anything.
    private func addWatches(_ directories: [String]) -> [Result<WatchDescriptor, FileSystemWatchError>] {
        let isLproj = directories.map(Self.isLproj)
        var read = source.addWatches(directories.filter(Self.isLproj), interest: .everything).makeIterator()
        var walked = source.addWatches(directories.filter { !Self.isLproj($0) }, interest: .tree).makeIterator()
        return isLproj.map { ($0 ? read.next() : walked.next())! }
    }

    /// Lists `directory`: reports its resource files, queues its subdirectories. Returns
    /// why it cannot be listed, if it cannot (a directory that vanished meanwhile is no
    /// problem: its deletion event follows).
    private func scan(
        _ directory: String, depth: Int, subdirectories: inout [(path: String, depth: Int)],
        into change: inout PendingChange
    ) -> UnwatchedDirectory? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            if let listing = opendir(directory) {
                closedir(listing)
                return nil
            }
            return errno == ENOENT || errno == ENOTDIR ? nil : Self.unlistable(directory, errno: errno)
        }
        let descend = ResourceScanner.entersSubdirectories(of: directory, atDepth: depth)
        recordUndecodableNames(in: directory, names: names, depth: depth, descend: descend)
        for name in names.sorted() where !EditorTempFiles.isTemporary(name) {
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else {
                if errno == ELOOP { record(error: "\(path): a loop of symbolic links, not followed") }
                if !Self.isLproj(directory), let skipped = Self.notALanguage(path, named: name) {
                    unwatched.record(skipped, depth: depth + 1, now: .now)
                }
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                guard !Self.isLproj(directory), isInsideRoots(path), !leadsBack(path, from: directory) else { continue }
                if let skipped = Self.notALanguage(path, named: name) {
                    unwatched.record(skipped, depth: depth + 1, now: .now)
                    continue
                }
                if descend {
                    subdirectories.append((path, depth + 1))
                } else {
                    recordTooDeep(path, depth: depth + 1)
                }
            } else if info.st_mode & S_IFMT == S_IFREG && EditorTempFiles.isResourceFile(name) {
                change.files.insert(path)
            }
        }
        return nil
    }

    /// Whether a symlinked `path` is allowed: inside a root, by the store's rule, unless
    /// links outside are allowed.
    private func isInsideRoots(_ path: String) -> Bool {
        if options.allowSymlinksOutsideRoots { return true }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return true }
        return ResourceScanner.isInside(path, realRoots: realRoots)
    }

    /// Whether `path`, in `directory`, is a link back to `directory` or above it: a loop
    /// that would be watched again under ever longer names. It is recorded and not followed.
    private func leadsBack(_ path: String, from directory: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
            let target = Self.realPath(path), let here = Self.realPath(directory),
            here == target || here.hasPrefix(target == "/" ? "/" : target + "/")
        else { return false }
        record(error: "\(path) links back to \(target), a loop: not followed")
        return true
    }

    // MARK: - Unwatched directories

    /// Records that `path`, `depth` levels below its root, is past the depth rule: neither
    /// read (the store follows the same rule) nor watched.
    private func recordTooDeep(_ path: String, depth: Int) {
        let message =
            "\(path) is more than \(ResourceScanner.maximumDepth) directories below its root: it is neither read nor watched"
        unwatched.record(
            UnwatchedDirectory(path: path, reason: .tooDeep, message: message, polled: false), depth: depth, now: .now)
    }

    /// Records the entries of `directory` skipped because their names are not UTF-8
    /// (Foundation lists them decoded with U+FFFD, a path that names nothing on disk): each
    /// directory, and each file named like a table, an `.lproj`'s files too, with its bytes
    /// shown and whether it is a file. Listed in `status`, logged once; one renamed away
    /// leaves the list at the next listing of `directory`.
    private func recordUndecodableNames(in directory: String, names: [String], depth: Int, descend: Bool) {
        let found = SkippedName.undecodable(in: directory, names: names, entersSubdirectories: descend)
        unwatched.clearUndecodable(in: directory, keeping: Set(found.map(\.path)))
        for name in found {
            unwatched.record(UnwatchedDirectory(name), depth: depth + 1, now: .now)
        }
    }

    /// Why the directory `path` (named `name`) is skipped for its name alone, if it is: an
    /// `.lproj` named for no language, by the scanner's rule (``SkippedName/folder(_:named:)``),
    /// so what lint and `--check-config` name is what `status` lists. Logged once.
    private static func notALanguage(_ path: String, named name: String) -> UnwatchedDirectory? {
        SkippedName.folder(path, named: name).map(UnwatchedDirectory.init)
    }

    private static func unlistable(_ directory: String, errno code: Int32) -> UnwatchedDirectory {
        let reason: FileSystemWatchError.Code =
            switch code {
            case EACCES, EPERM: .permissionDenied
            case EMFILE, ENFILE: .descriptorsExhausted
            default: .other
            }
        return UnwatchedDirectory(
            path: directory, reason: reason,
            message:
                "cannot list \(directory): \(String(cString: strerror(code))); tables read from it before, if any, are kept",
            polled: false)
    }

    /// After each pass: logs what started or cleared, publishes the list, and (re)arms the
    /// retry and poll timers as the list now needs.
    private func updateUnwatched() {
        guard unwatched.changed else { return }
        let (started, cleared) = unwatched.takeTransitions()
        logTransitions(started: started, cleared: cleared)
        let listed = Array(unwatched.sorted.prefix(Self.maximumListedUnwatched))
        let count = unwatched.count
        counters.withLock {
            $0.unwatched = listed
            $0.unwatchedCount = count
        }
        scheduleRetry()
        schedulePolling()
    }

    /// What started, in a line or two per burst (``UnwatchedLog``: the watch limit can leave
    /// thousands unwatched at once, a deployment can add 40 odd folders one by one); what
    /// cleared, one line per directory or one for many.
    private func logTransitions(started: [UnwatchedDirectory], cleared: [UnwatchedDirectory]) {
        for line in unwatchedLog.withLock({ $0.started(started, now: .now) }) { log(line.level, line.message) }
        scheduleUnwatchedLog()
        if cleared.count > 3 {
            log(.notice, "\(cleared.count) directories are watched again or gone, among them \(cleared[0].path)")
        } else {
            for directory in cleared {
                log(.notice, "\(directory.path) is watched again or gone (was: \(directory.reason.rawValue))")
            }
        }
    }

    /// Logs the unwatched directories held for the burst's next line now: the process is
    /// about to exit, and nothing found may go unsaid. Callable from any thread.
    package func flushLog() {
        for line in unwatchedLog.withLock({ $0.flush() }) { log(line.level, line.message) }
    }

    /// Says what ``unwatchedLog`` held once its window ends, as long as bursts go on.
    private func scheduleUnwatchedLog() {
        guard let end = unwatchedLog.withLock({ $0.windowEnd }) else { return }
        let timer =
            unwatchedLogTimer
            ?? DispatchSource.unscheduledTimer(queue: queue) { [weak self] in
                guard let self, running else { return }
                for line in unwatchedLog.withLock({ $0.windowEnded(now: .now) }) { log(line.level, line.message) }
                scheduleUnwatchedLog()
            }
        unwatchedLogTimer = timer
        timer.schedule(deadline: .now() + DispatchTimeInterval(max(end - .now, .zero)), leeway: .milliseconds(50))
    }

    private func scheduleRetry() {
        guard let next = unwatched.nextRetry else {
            retryTimer?.cancel()
            retryTimer = nil
            return
        }
        let timer =
            retryTimer ?? DispatchSource.unscheduledTimer(queue: queue) { [weak self] in self?.retryUnwatched() }
        retryTimer = timer
        timer.schedule(deadline: .now() + DispatchTimeInterval(max(next - .now, .zero)), leeway: .milliseconds(100))
    }

    private func schedulePolling() {
        guard unwatched.hasPolled else {
            pollTimer?.cancel()
            pollTimer = nil
            return
        }
        guard pollTimer == nil else { return }
        pollTimer = DispatchSource.repeatingTimer(every: UnwatchedDirectories.pollInterval, queue: queue) {
            [weak self] in self?.pollUnwatched()
        }
    }

    /// `files` with the other names of their inodes, which changed with them though no event
    /// says so; starts or stops polling each as it now is (``PolledFiles``).
    private func notePolled(_ files: Set<String>) -> Set<String> {
        let all = files.union(files.flatMap { polledFiles.note($0) })
        let count = polledFiles.count
        counters.withLock { $0.polledFiles = count }
        schedulePolledFiles()
        scheduleLinkSweep()
        return all
    }

    /// Sweeps the files with one link for a new one while there are any: a link made outside
    /// every root raises no event on any watch of ours.
    private func scheduleLinkSweep() {
        guard !polledFiles.hasNothingToSweep else {
            linkSweepTimer?.cancel()
            linkSweepTimer = nil
            return
        }
        guard linkSweepTimer == nil, running else { return }
        linkSweepTimer = DispatchSource.repeatingTimer(every: PolledFiles.sweepInterval, queue: queue) {
            [weak self] in
            guard let self, running else { return }
            let linked = polledFiles.sweep()
            guard !linked.isEmpty else { return }
            counters.withLock { $0.polledChanges += linked.count }
            var change = PendingChange()
            change.files.formUnion(linked)
            submit(change)
        }
    }

    /// Polls the hard-linked and separately mounted files while there are any.
    private func schedulePolledFiles() {
        guard !polledFiles.isEmpty else {
            filePollTimer?.cancel()
            filePollTimer = nil
            return
        }
        guard filePollTimer == nil, running else { return }
        filePollTimer = DispatchSource.repeatingTimer(every: PolledFiles.pollInterval, queue: queue) {
            [weak self] in
            guard let self, running else { return }
            let changed = polledFiles.poll { self.filesBeingWritten.contains($0) }
            if !changed.isEmpty {
                counters.withLock { $0.polledChanges += changed.count }
                var change = PendingChange()
                change.files.formUnion(changed)
                submit(change)
            } else {
                schedulePolledFiles()
            }
        }
    }

    /// Tries again to watch (and list) each directory whose retry is due; a directory that
    /// now works is re-read whole, since edits in it may have gone unseen.
    private func retryUnwatched() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard running else { return }
        let now = ContinuousClock.now
        var reread = PendingChange()
        let due = unwatched.due(at: now)
        var discarded = PendingChange()
        rescanSubtrees(due.map { ($0.directory.path, $0.depth) }, into: &discarded)
        for entry in due {
            if unwatched.contains(entry.directory.path) {
                unwatched.retryFailed(entry.directory.path, now: now)
            } else {
                reread.directories.insert(entry.directory.path)
            }
        }
        updateWatchCount()
        // The timer is one-shot per schedule: arm it again even when nothing was cleared.
        scheduleRetry()
        updateUnwatched()
        submit(reread)
    }

    /// Compares each polled directory with the last poll; one that changed is re-read, and
    /// walked again so that a new subdirectory in it is watched (or listed in turn).
    private func pollUnwatched() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard running else { return }
        let polled = unwatched.poll()
        guard !polled.isEmpty else { return }
        var changed = PendingChange()
        changed.directories.formUnion(polled.map(\.directory.path))
        var discarded = PendingChange()
        rescanSubtrees(polled.map { ($0.directory.path, $0.depth) }, into: &discarded)
        counters.withLock { $0.polledChanges += changed.directories.count }
        updateWatchCount()
        updateUnwatched()
        submit(changed)
    }

    // MARK: - Bookkeeping

    private func bind(_ path: String, to watch: WatchDescriptor, depth: Int) {
        if let old = watchedPaths[path], old.watch != watch {
            forget(path, from: old.watch, removeFromSource: true)
        }
        watchedPaths[path] = WatchedPath(watch: watch, depth: depth)
        watchedTree.insert(path)
        pathsByWatch[watch, default: []].insert(path)
        retiredWatches.remove(watch)
    }

    /// Forgets `path` and every watched path below it.
    private func unbindSubtree(_ path: String, removeFromSource: Bool) {
        for candidate in watchedTree.paths(atOrBelow: path) {
            guard let watched = watchedPaths.removeValue(forKey: candidate) else { continue }
            watchedTree.remove(candidate)
            forget(candidate, from: watched.watch, removeFromSource: removeFromSource)
        }
    }

    /// Forgets `path` and everything below it, watched or not: it was deleted or moved away.
    private func forgetSubtree(_ path: String, removeFromSource: Bool) {
        unbindSubtree(path, removeFromSource: removeFromSource)
        unwatched.clear(atOrBelow: path)
        polledFiles.forget(atOrBelow: path)
    }

    private func forget(_ path: String, from watch: WatchDescriptor, removeFromSource: Bool) {
        pathsByWatch[watch]?.remove(path)
        guard pathsByWatch[watch]?.isEmpty ?? false else { return }
        pathsByWatch[watch] = nil
        retiredWatches.insert(watch)
        if removeFromSource { source.removeWatch(watch) }
    }

    private func submit(_ change: PendingChange) {
        let files = notePolled(change.files)
        debouncer.add(
            files: files, directories: change.directories, fullRescan: change.fullRescan, reasons: change.reasons
        )
    }

    private func deliver(_ batch: ChangeBatch) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard running else { return }
        counters.withLock { $0.batches += 1 }
        onChange(batch)
    }

    /// Publishes `error` as the last problem; `subject`, the path it is about, is given when
    /// the problem can end (a root back), so that ``resolved(_:)`` can say it has.
    private func record(error: String, about subject: String? = nil) {
        lastErrorSubject = subject
        counters.withLock { $0.lastError = error }
    }

    /// The problem with `subject` is over: a last error about it is kept only as resolved,
    /// with the time, so `status` does not show a root that is back as still missing.
    private func resolved(_ subject: String) {
        guard lastErrorSubject == subject else { return }
        lastErrorSubject = nil
        let time = Date.now.ISO8601Format()
        counters.withLock {
            guard let error = $0.lastError else { return }
            $0.resolvedError = "\(error) (resolved \(time))"
            $0.lastError = nil
        }
    }

    private func updateWatchCount() {
        let count = pathsByWatch.count
        counters.withLock { $0.watchCount = count }
    }

    // MARK: - File system helpers

    private static func isLproj(_ directory: String) -> Bool {
        directory.hasSuffix(".lproj")
    }

    /// Whether a file that has just appeared is complete: a new regular file is still being
    /// written until it is closed; a symbolic link, a second hard link to existing content,
    /// or anything else named like a table (a directory, which the store reports) is.
    private static func isCompleteWhenCreated(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return true }  // gone again: let the store see it gone
        return info.st_mode & S_IFMT != S_IFREG || info.st_nlink > 1
    }

    /// The last component of `path`.
    private static func name(_ path: String) -> String {
        (path as NSString).lastPathComponent
    }

    /// The directory holding `path` (`/` for a path directly under it).
    private static func parent(_ path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "/" : parent
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func inode(_ path: String) -> InodeID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return InodeID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
