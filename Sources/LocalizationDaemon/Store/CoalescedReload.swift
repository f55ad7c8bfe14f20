import Dispatch
import Synchronization

/// Full rescans asked for by SIGHUP and the `reload` op, coalesced.
///
/// A rescan reads every root, so a storm of requests (300 SIGHUPs from a script) must not
/// queue 300 of them. A request that arrives while a rescan is queued and not yet started
/// joins that one: it starts after the request arrived, so it reads the disk as the request
/// saw it. A request that arrives while a rescan runs queues one more (at most one waits),
/// because the running one may have read the disk before the change the request is about.
/// Every requester is answered once a rescan that started after its request has finished.
///
/// Rescans also start at least ``minimumGap`` apart: on a small root a rescan takes a few
/// milliseconds, less than the time between two signals of a storm, so joining alone would
/// still run one per signal. A lone request after a quiet spell starts at once.
///
/// ```swift
/// let reloads = CoalescedReload<ChangeSummary>(queue: queue)
/// reloads.request(perform: { store.rescan() }) { summary in print(summary.generation) }
/// ```
final class CoalescedReload<Result: Sendable>: Sendable {
    private struct Pending {
        var queued = false
        var lastFinished: ContinuousClock.Instant?
        var waiters: [@Sendable (Result) -> Void] = []
    }

    private let queue: DispatchQueue
    private let minimumGap: Duration
    private let pending = Mutex(Pending())

    /// Runs the rescans on `queue`, one after another, each starting at least
    /// `minimumGap` after the previous one finished.
    init(queue: DispatchQueue, minimumGap: Duration = .milliseconds(200)) {
        self.queue = queue
        self.minimumGap = minimumGap
    }

    /// Asks for a rescan; `done` (if any) gets the result of the first one to start after
    /// now. `perform` is the rescan, run on the queue unless a queued one is joined.
    func request(perform: @escaping @Sendable () -> Result, done: (@Sendable (Result) -> Void)? = nil) {
        let schedule = pending.withLock { pending in
            if let done { pending.waiters.append(done) }
            if pending.queued { return false }
            pending.queued = true
            return true
        }
        guard schedule else { return }
        queue.async { [self] in start(perform) }
    }

    /// On `queue`: runs the queued rescan, or waits out the rest of the gap first (still
    /// queued, so requests meanwhile join it).
    private func start(_ perform: @escaping @Sendable () -> Result) {
        let now = ContinuousClock.now
        let waiters: [@Sendable (Result) -> Void]? = pending.withLock { pending in
            if let last = pending.lastFinished, now < last + minimumGap { return nil }
            // From here on, a new request queues the next rescan: this one may read too early.
            defer {
                pending.queued = false
                pending.waiters = []
            }
            return pending.waiters
        }
        guard let waiters else {
            let remaining = pending.withLock { ($0.lastFinished ?? now) + minimumGap - now }
            let nanoseconds = Int(remaining / .nanoseconds(1))
            queue.asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { [self] in start(perform) }
            return
        }
        let result = perform()
        pending.withLock { $0.lastFinished = ContinuousClock.now }
        for waiter in waiters { waiter(result) }
    }
}
