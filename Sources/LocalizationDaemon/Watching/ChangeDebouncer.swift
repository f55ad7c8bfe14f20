import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Gathers changes until the directories have been quiet for a settle window, then hands
/// them on as one `ChangeBatch` (watchman's "settle", 20 ms by default).
///
/// An editor's save is a burst of events (probe, rename, write, close, delete backup); one
/// reload after the burst is right, one per event is waste. A writer that never pauses
/// still gets a batch every `maximumDelay`, so latency stays bounded.
///
/// A file or directory that is gone when its batch settles is held back for `vanishGrace`
/// (250 ms by default) and reported only if it is still gone then, or back. Safe-writing
/// editors (JetBrains, vim) rename the file away before renaming the new one in, and a
/// deployment may rename a whole `.lproj` away and back; on a loaded machine or a slow
/// network file system the two renames can be further apart than the settle window, and
/// reporting the gap would drop the tables and serve the fallback language until they are
/// back. A real deletion takes effect `vanishGrace` later instead.
///
/// A file that someone is still writing (`isBeingWritten`: the watcher saw it created or
/// modified and not yet closed) is held back too, without a time limit: its close-write
/// event adds it again, and a half-written file is never handed on.
///
/// Confined to `queue`: every method must be called on it, and `deliver` runs on it.
final class ChangeDebouncer: @unchecked Sendable {
    // @unchecked: all mutable state is touched only on `queue` (checked by dispatchPrecondition).
    private let queue: DispatchQueue
    private let settle: DispatchTimeInterval
    private let maximumDelay: DispatchTimeInterval
    private let vanishGrace: DispatchTimeInterval
    private let fileExists: (String) -> Bool
    private let isBeingWritten: (String) -> Bool
    private let deliver: (ChangeBatch) -> Void
    private var files: Set<String> = []
    /// Pending paths that were gone when their batch settled, with when their grace ends.
    private var vanished: [String: DispatchTime] = [:]
    private var directories: Set<String> = []
    private var fullRescan = false
    private var reasons: [String] = []
    private var firstChange: DispatchTime?
    private var timer: (any DispatchSourceTimer)?

    /// - Parameters:
    ///   - fileExists: Whether a path names something now; `lstat` unless a test decides.
    ///   - isBeingWritten: Whether a file is open for writing, as far as events tell.
    init(
        queue: DispatchQueue, settle: Duration, maximumDelay: Duration, vanishGrace: Duration = .milliseconds(250),
        fileExists: @escaping (String) -> Bool = ChangeDebouncer.exists,
        isBeingWritten: @escaping (String) -> Bool = { _ in false },
        deliver: @escaping (ChangeBatch) -> Void
    ) {
        self.queue = queue
        self.settle = DispatchTimeInterval(settle)
        self.maximumDelay = DispatchTimeInterval(max(maximumDelay, settle))
        self.vanishGrace = DispatchTimeInterval(vanishGrace)
        self.fileExists = fileExists
        self.isBeingWritten = isBeingWritten
        self.deliver = deliver
    }

    /// Adds changes and restarts the settle window (never beyond `maximumDelay`).
    func add(files: some Sequence<String>, directories: some Sequence<String>, fullRescan: Bool, reasons: [String]) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.files.formUnion(files)
        self.directories.formUnion(directories)
        self.fullRescan = self.fullRescan || fullRescan
        self.reasons += reasons
        guard !self.files.isEmpty || !self.directories.isEmpty || self.fullRescan else { return }
        let now = DispatchTime.now()
        let first = firstChange ?? now
        firstChange = first
        let deadline = min(now + settle, first + maximumDelay)
        schedule(deadline)
    }

    /// Delivers whatever is pending now, without waiting for the window to settle or for a
    /// vanished file's grace (a rescan wants the state of the disk as it is).
    func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
        firstChange = nil
        vanished = [:]
        let batch = ChangeBatch(files: files, directories: directories, fullRescan: fullRescan, reasons: reasons)
        files = []
        directories = []
        fullRescan = false
        reasons = []
        if !batch.isEmpty { deliver(batch) }
    }

    /// The window settled: delivers everything but the paths that have just vanished, which
    /// wait for their grace to end, and the files still being written, which wait for their
    /// close.
    private func settled() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = DispatchTime.now()
        var heldFiles: Set<String> = []
        var heldDirectories: Set<String> = []
        var stillVanished: [String: DispatchTime] = [:]
        // A full rescan reads the whole disk as it is, so holding a path back would not help.
        if !fullRescan {
            heldFiles = files.filter { isBeingWritten($0) || holdVanished($0, now: now, into: &stillVanished) }
            heldDirectories = directories.filter { holdVanished($0, now: now, into: &stillVanished) }
        }
        files.subtract(heldFiles)
        directories.subtract(heldDirectories)
        flush()
        // flush() forgot them: they stay pending, with their grace, and nothing else does.
        guard !heldFiles.isEmpty || !heldDirectories.isEmpty else { return }
        files = heldFiles
        directories = heldDirectories
        vanished = stillVanished
        if let graceEnds = stillVanished.values.min() { schedule(graceEnds) }
    }

    /// Whether `path` is gone and its grace (starting now, or earlier) has not ended; a path
    /// held is noted in `held` with the end of its grace.
    private func holdVanished(_ path: String, now: DispatchTime, into held: inout [String: DispatchTime]) -> Bool {
        guard !fileExists(path) else { return false }
        let graceEnds = vanished[path] ?? now + vanishGrace
        guard graceEnds > now else { return false }
        held[path] = graceEnds
        return true
    }

    private func schedule(_ deadline: DispatchTime) {
        let timer = timer ?? DispatchSource.unscheduledTimer(queue: queue) { [weak self] in self?.settled() }
        timer.schedule(deadline: deadline)
        self.timer = timer
    }

    /// Whether anything is at `path` (a dangling link counts: it is the link that changed).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Drops pending changes and the timer.
    func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
        firstChange = nil
        vanished = [:]
        files = []
        directories = []
        fullRescan = false
        reasons = []
    }
}
