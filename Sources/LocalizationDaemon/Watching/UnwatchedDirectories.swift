import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The watcher's record of the directories it reads but cannot watch: why, when to try
/// again, and what each looked like at its last poll.
///
/// A watch that fails (`EACCES`, `ENOSPC`, …) must not start a full rescan: the rescan
/// would fail the same way and start another, a loop that once ran 290,000 rescans a
/// minute. Instead the directory is recorded here, once, and:
/// - retried after 1 s, then 2, 4, 8, 16, 32 s and every 60 s after that
///   (``retryDelay(afterFailures:)``) — or at once when an event concerns it;
/// - if it can be listed, polled every 2 s (``pollInterval``): its entries' names, sizes,
///   modification times and inodes are compared with the previous poll, so edits still
///   arrive, late by at most the interval.
///
/// Each directory's problem is announced once when it starts and once when it clears
/// (``takeTransitions()``), never per retry.
struct UnwatchedDirectories {
    /// The first retry comes this long after a failure.
    static let firstRetryDelay = Duration.seconds(1)
    /// Retries are never further apart than this.
    static let maximumRetryDelay = Duration.seconds(60)
    /// How often directories that can be listed but not watched are compared.
    static let pollInterval = Duration.seconds(2)

    struct Entry {
        var directory: UnwatchedDirectory
        var depth: Int
        var failedRetries = 0
        /// When to try watching it again; `nil` when there is no point (too deep).
        var nextRetry: ContinuousClock.Instant?
        /// The directory's look at the last poll; `nil` when not polled.
        var fingerprint: Int?
    }

    private(set) var entries: [String: Entry] = [:]
    private var paths = PathTree()
    private var started: [UnwatchedDirectory] = []
    private var cleared: [UnwatchedDirectory] = []
    /// Whether the set changed since the last ``takeTransitions()``.
    private(set) var changed = false

    /// 1 s after the first failure, doubling per failed retry, at most 60 s.
    static func retryDelay(afterFailures failures: Int) -> Duration {
        min(firstRetryDelay * (1 << min(failures, 16)), maximumRetryDelay)
    }

    var count: Int { entries.count }

    func contains(_ path: String) -> Bool { entries[path] != nil }

    /// Records that `directory` (at `depth` below its root) is not watched. A directory
    /// already recorded keeps its retry schedule; only a new reason is announced again.
    mutating func record(_ directory: UnwatchedDirectory, depth: Int, now: ContinuousClock.Instant) {
        if var entry = entries[directory.path] {
            let isNewReason = entry.directory.reason != directory.reason
            if isNewReason { started.append(directory) }
            if entry.directory != directory { changed = true }
            if directory.polled, !entry.directory.polled { entry.fingerprint = Self.fingerprint(of: directory.path) }
            if !directory.polled { entry.fingerprint = nil }
            entry.directory = directory
            entry.depth = depth
            entries[directory.path] = entry
            return
        }
        let retry = directory.reason == .tooDeep || directory.isSkippedByName ? nil : now + Self.firstRetryDelay
        entries[directory.path] = Entry(
            directory: directory, depth: depth, nextRetry: retry,
            fingerprint: directory.polled ? Self.fingerprint(of: directory.path) : nil)
        paths.insert(directory.path)
        started.append(directory)
        changed = true
    }

    /// `path` is watched (or gone): it is no longer listed.
    mutating func clear(_ path: String) {
        guard let entry = entries.removeValue(forKey: path) else { return }
        paths.remove(path)
        cleared.append(entry.directory)
        changed = true
    }

    /// Clears `path` and everything recorded below it (a directory deleted or moved away).
    mutating func clear(atOrBelow path: String) {
        for found in paths.paths(atOrBelow: path) { clear(found) }
    }

    /// Clears the names-not-UTF-8 recorded directly in `directory` but for `keeping` (the
    /// ones its listing still has): renamed or deleted since.
    mutating func clearUndecodable(in directory: String, keeping: Set<String>) {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for (path, entry) in entries
        where entry.directory.reason == .nameNotUTF8 && !keeping.contains(path) && path.hasPrefix(prefix)
            && !path.dropFirst(prefix.count).contains("/")
        {
            clear(path)
        }
    }

    /// Clears every entry whose directory no longer exists.
    mutating func clearVanished() {
        // A name that is not UTF-8 is recorded decoded, a path that `lstat` cannot find: it
        // leaves with its parent, or with the event that renames or deletes it.
        for (path, entry) in entries where entry.directory.reason != .nameNotUTF8 && !Self.exists(path) {
            clear(path)
        }
    }

    /// A retry of `path` failed again: the next one waits longer.
    mutating func retryFailed(_ path: String, now: ContinuousClock.Instant) {
        guard var entry = entries[path], entry.nextRetry != nil else { return }
        entry.failedRetries += 1
        entry.nextRetry = now + Self.retryDelay(afterFailures: entry.failedRetries)
        entries[path] = entry
    }

    /// The entries whose retry is due at `now`.
    func due(at now: ContinuousClock.Instant) -> [Entry] {
        entries.values.filter { $0.nextRetry.map { $0 <= now } ?? false }.sorted {
            $0.directory.path < $1.directory.path
        }
    }

    /// The earliest retry, if any is planned.
    var nextRetry: ContinuousClock.Instant? {
        entries.values.compactMap(\.nextRetry).min()
    }

    /// Whether any directory is polled.
    var hasPolled: Bool { entries.values.contains { $0.directory.polled } }

    /// Polls every polled directory; returns those that changed since the last poll.
    mutating func poll() -> [Entry] {
        var changedEntries: [Entry] = []
        for (path, entry) in entries where entry.directory.polled {
            let now = Self.fingerprint(of: path)
            guard now != entry.fingerprint else { continue }
            entries[path]?.fingerprint = now
            changedEntries.append(entry)
        }
        return changedEntries.sorted { $0.directory.path < $1.directory.path }
    }

    /// Every entry, sorted by path.
    var sorted: [UnwatchedDirectory] {
        entries.values.map(\.directory).sorted { $0.path < $1.path }
    }

    /// What started and what cleared since the last call; resets `changed`.
    mutating func takeTransitions() -> (started: [UnwatchedDirectory], cleared: [UnwatchedDirectory]) {
        defer {
            started = []
            cleared = []
            changed = false
        }
        return (started, cleared)
    }

    /// A hash of what `directory` holds: each visible entry's name, inode, size, mode and
    /// modification time; `nil` when it cannot be listed. One `stat` per entry.
    static func fingerprint(of directory: String) -> Int? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var hasher = Hasher()
        for name in names.sorted() where !EditorTempFiles.isTemporary(name) || EditorTempFiles.isAtomicSwapLink(name) {
            var info = stat()
            hasher.combine(name)
            guard stat(directory + "/" + name, &info) == 0 else { continue }
            hasher.combine(info.st_ino)
            hasher.combine(info.st_size)
            hasher.combine(info.st_mode)
            hasher.combine(info.st_mtim.tv_sec)
            hasher.combine(info.st_mtim.tv_nsec)
        }
        return hasher.finalize()
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 || (errno != ENOENT && errno != ENOTDIR)
    }
}
