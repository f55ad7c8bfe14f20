import Foundation

/// Blocking work on every thread of Swift's cooperative pool, as a program's synchronous code
/// called from tasks makes it (or a test process's synchronous tests): nothing else runs on
/// the pool until ``release()``. The pool has a thread per core and adds none for blocked
/// ones.
public final class CooperativePoolBlocker: Sendable {
    /// More blocking tasks than the pool has threads, so every thread takes one.
    private let count = 4 * ProcessInfo.processInfo.activeProcessorCount
    private let started = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    /// Starts the blocking tasks; returns once all but one of the pool's threads run one
    /// (the caller may hold the last, and a blocking task takes it as soon as it is free),
    /// or after `seconds` (then `isHoldingThePool` is false).
    public init(waitingAtMost seconds: Double = 10) {
        for _ in 0..<count {
            Task.detached { [started, released] in
                started.signal()
                released.wait()
            }
        }
        let threads = ProcessInfo.processInfo.activeProcessorCount
        var running = 0
        while running < max(1, threads - 1), started.wait(timeout: .now() + seconds) == .success { running += 1 }
        isHoldingThePool = running >= max(1, threads - 1)
        // The task starting on the last thread, if the caller held it a moment ago.
        Thread.sleep(forTimeInterval: 0.1)
    }

    /// Whether the blocking tasks took the pool's threads.
    public let isHoldingThePool: Bool

    /// Lets every blocking task end. Call once.
    public func release() {
        for _ in 0..<count { released.signal() }
    }
}
