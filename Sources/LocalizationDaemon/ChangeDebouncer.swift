import Dispatch

/// Gathers changes until the directories have been quiet for a settle window, then hands
/// them on as one `ChangeBatch` (watchman's "settle", 20 ms by default).
///
/// An editor's save is a burst of events (probe, rename, write, close, delete backup); one
/// reload after the burst is right, one per event is waste. A writer that never pauses
/// still gets a batch every `maximumDelay`, so latency stays bounded.
///
/// Confined to `queue`: every method must be called on it, and `deliver` runs on it.
final class ChangeDebouncer: @unchecked Sendable {
    // @unchecked: all mutable state is touched only on `queue` (checked by dispatchPrecondition).
    private let queue: DispatchQueue
    private let settle: DispatchTimeInterval
    private let maximumDelay: DispatchTimeInterval
    private let deliver: (ChangeBatch) -> Void
    private var files: Set<String> = []
    private var directories: Set<String> = []
    private var fullRescan = false
    private var reasons: [String] = []
    private var firstChange: DispatchTime?
    private var timer: (any DispatchSourceTimer)?

    init(queue: DispatchQueue, settle: Duration, maximumDelay: Duration, deliver: @escaping (ChangeBatch) -> Void) {
        self.queue = queue
        self.settle = Self.interval(settle)
        self.maximumDelay = Self.interval(max(maximumDelay, settle))
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
        if timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.flush() }
            timer.schedule(deadline: deadline)
            timer.resume()
            self.timer = timer
        } else {
            timer?.schedule(deadline: deadline)
        }
    }

    /// Delivers whatever is pending now, without waiting for the window to settle.
    func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
        firstChange = nil
        let batch = ChangeBatch(files: files, directories: directories, fullRescan: fullRescan, reasons: reasons)
        files = []
        directories = []
        fullRescan = false
        reasons = []
        if !batch.isEmpty { deliver(batch) }
    }

    /// Drops pending changes and the timer.
    func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
        firstChange = nil
        files = []
        directories = []
        fullRescan = false
        reasons = []
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        return .nanoseconds(Int(min(nanoseconds, Int64(Int.max))))
    }
}
