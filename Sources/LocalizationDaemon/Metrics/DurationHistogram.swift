import Glibc
import Synchronization

/// A latency histogram with fixed bucket bounds, for the `metrics` op: how many
/// observations took at most each bound, their count and their sum.
///
/// Cheap enough for every request: recording is a clock read (`CLOCK_MONOTONIC`, no system
/// call), a short scan of the bounds and two relaxed atomic additions — no lock, no
/// allocation. Nothing is ever reset, so a scraper's `rate()` stays right.
///
/// ```swift
/// let histogram = DurationHistogram(bounds: DurationHistogram.requestBounds)
/// let started = DurationHistogram.now()
/// answer()
/// histogram.record(since: started)
/// ```
package final class DurationHistogram: @unchecked Sendable {
    // @unchecked: `buckets` points to atomics, allocated once and freed in deinit; every
    // access to them is atomic.

    /// Bounds for one request: 10 µs to 10 s (a lookup takes tens of microseconds; a big
    /// `table` reply, or one queued behind a slow reader, takes far longer).
    package static let requestBounds: [Double] = [
        0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1,
        0.25, 0.5, 1, 2.5, 5, 10,
    ]
    /// Bounds for one reload: 1 ms to 60 s (one edited file takes milliseconds; a full
    /// rescan of a large tree seconds).
    package static let reloadBounds: [Double] = [
        0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
    ]

    /// The upper bounds of the buckets, in seconds, ascending; `+Inf` is implied.
    package let bounds: [Double]
    private let boundNanoseconds: [Int]
    /// One more than the bounds: the last counts what exceeds every bound. Atomics in one
    /// allocation, not an array of objects (`Atomic` cannot be an array element): recording
    /// takes no reference.
    private let buckets: UnsafeMutablePointer<Atomic<Int>>
    private let bucketCount: Int
    private let sumNanoseconds = Atomic<Int>(0)

    /// Creates an empty histogram with `bounds` (seconds, ascending).
    package init(bounds: [Double]) {
        self.bounds = bounds
        boundNanoseconds = bounds.map { Int(($0 * 1e9).rounded()) }
        bucketCount = bounds.count + 1
        buckets = .allocate(capacity: bucketCount)
        for index in 0..<bucketCount { (buckets + index).initialize(to: Atomic(0)) }
    }

    deinit {
        buckets.deinitialize(count: bucketCount)
        buckets.deallocate()
    }

    /// The monotonic clock now, in nanoseconds: the start to give ``record(since:)``.
    @inline(__always)
    package static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// Records the time from `start` (a ``now()`` value) until now.
    @inline(__always)
    package func record(since start: Int) {
        record(nanoseconds: Self.now() - start)
    }

    /// Records one observation of `nanoseconds`.
    package func record(nanoseconds: Int) {
        let duration = max(0, nanoseconds)
        var index = 0
        while index < boundNanoseconds.count, duration > boundNanoseconds[index] { index += 1 }
        buckets[index].add(1, ordering: .relaxed)
        sumNanoseconds.add(duration, ordering: .relaxed)
    }

    /// The counts as Prometheus exposes them: cumulative per bound, then the total.
    ///
    /// Read bucket by bucket while others record, so it may miss an observation made
    /// meanwhile, but each figure only grows from one read to the next.
    package var snapshot: Snapshot {
        var cumulative: [Int] = []
        cumulative.reserveCapacity(bucketCount)
        var running = 0
        for index in 0..<bucketCount {
            running += buckets[index].load(ordering: .relaxed)
            cumulative.append(running)
        }
        return Snapshot(
            bounds: bounds, cumulativeCounts: cumulative,
            sumSeconds: Double(sumNanoseconds.load(ordering: .relaxed)) / 1e9)
    }

    /// A histogram's figures at one moment.
    package struct Snapshot: Sendable, Hashable {
        /// The buckets' upper bounds, seconds.
        package var bounds: [Double]
        /// Observations at most each bound, then all of them (the `+Inf` bucket).
        package var cumulativeCounts: [Int]
        /// The sum of every observation, seconds.
        package var sumSeconds: Double

        /// How many observations were recorded.
        package var count: Int { cumulativeCounts.last ?? 0 }
    }
}
