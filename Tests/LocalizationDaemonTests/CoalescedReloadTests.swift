import Dispatch
import Foundation
import Synchronization
import Testing

@testable import LocalizationDaemon

/// SIGHUP and `reload` requests coalesced: on a real serial queue, with a counter standing
/// in for the full rescan.
@Suite struct CoalescedReloadTests {
    /// Requests made while a rescan waits in the queue all join it, and every one is answered.
    @Test func requestsWhileOneIsQueuedJoinIt() {
        let queue = DispatchQueue(label: "test.reloads")
        let reloads = CoalescedReload<Int>(queue: queue, minimumGap: .zero)
        let runs = Atomic<Int>(0)
        let answered = DispatchGroup()
        let blocker = DispatchSemaphore(value: 0)
        queue.async { blocker.wait() }  // the queue is busy: nothing starts yet
        for _ in 0..<50 {
            answered.enter()
            reloads.request(perform: { runs.add(1, ordering: .relaxed).newValue }) { _ in answered.leave() }
        }
        blocker.signal()
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    /// Requests made while a rescan runs queue exactly one more, which answers them: the
    /// running one may have read the disk before their change.
    @Test func requestsWhileOneRunsQueueExactlyOneMore() {
        let queue = DispatchQueue(label: "test.reloads")
        let reloads = CoalescedReload<Int>(queue: queue, minimumGap: .zero)
        let runs = Atomic<Int>(0)
        let running = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let answered = DispatchGroup()
        answered.enter()
        reloads.request(
            perform: {
                let run = runs.add(1, ordering: .relaxed).newValue
                if run == 1 {
                    running.signal()
                    release.wait()
                }
                return run
            }, done: { _ in answered.leave() })
        running.wait()
        let later = Mutex<[Int]>([])
        for _ in 0..<10 {
            answered.enter()
            reloads.request(perform: { runs.add(1, ordering: .relaxed).newValue }) { run in
                later.withLock { $0.append(run) }
                answered.leave()
            }
        }
        release.signal()
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(runs.load(ordering: .relaxed) == 2)
        #expect(later.withLock { $0 } == Array(repeating: 2, count: 10))
    }

    /// A rescan asked for right after another finished starts only once the gap has passed.
    @Test func rescansStartAtLeastTheGapApart() {
        let queue = DispatchQueue(label: "test.reloads")
        let reloads = CoalescedReload<ContinuousClock.Instant>(queue: queue, minimumGap: .milliseconds(150))
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let starts = Mutex<[ContinuousClock.Instant]>([])
        let perform: @Sendable () -> ContinuousClock.Instant = {
            let now = ContinuousClock.now
            starts.withLock { $0.append(now) }
            return now
        }
        reloads.request(perform: perform) { _ in first.signal() }
        #expect(first.wait(timeout: .now() + 10) == .success)
        reloads.request(perform: perform) { _ in second.signal() }
        #expect(second.wait(timeout: .now() + 10) == .success)
        let recorded = starts.withLock { $0 }
        #expect(recorded.count == 2)
        if recorded.count == 2 { #expect(recorded[1] - recorded[0] >= .milliseconds(150)) }
    }
}
