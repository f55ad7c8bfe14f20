import Dispatch
import Synchronization

/// The one read of the resource files made in the background on behalf of lookups, which
/// wait for it each at most its own time (a daemon mode's fallback; embedded mode waits until
/// it ends). It outlives the lookups that began or waited for it, so a large set is read once,
/// not once per thread, and arrives for the lookups after.
final class BackgroundFetch<Value: Sendable>: Sendable {
    /// When it began (uptime nanoseconds).
    let started = DispatchTime.now().uptimeNanoseconds
    /// Left when the fetch ends.
    let done = DispatchGroup()
    private let outcome = ForkSafeMutex<Value?>(nil)

    init() { done.enter() }

    /// Ends the fetch with `value` (`nil`: it failed), waking the lookups that wait for it.
    func finish(with value: Value?) {
        outcome.withLock { $0 = value }
        done.leave()
    }

    /// Waits until the fetch ended or the uptime reaches `deadline` (nanoseconds); returns its
    /// value, `nil` when it failed or has not ended.
    func wait(until deadline: UInt64) -> Value? {
        if DispatchTime.now().uptimeNanoseconds < deadline {
            _ = done.wait(timeout: DispatchTime(uptimeNanoseconds: deadline))
        }
        return outcome.withLock { $0 }
    }
}
