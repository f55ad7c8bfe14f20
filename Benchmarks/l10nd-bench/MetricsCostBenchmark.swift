import Foundation
import LocalizationDaemon
import Synchronization

/// What timing a request costs the request path: one `DurationHistogram.record(since:)`
/// with its clock read (what `LookupService.handle` adds to every request), against one
/// relaxed atomic increment (what counting a lookup already cost), from 1 and 4 threads at
/// once into the same histogram (the contended case), in the same run. A direct lookup's
/// round trip, for scale, is tens of microseconds (`--only client`).
func runMetricsCostBenchmark(records: Int = 4_000_000) {
    print("metrics cost: \(records) records per figure")
    let histogram = DurationHistogram(bounds: DurationHistogram.requestBounds)
    let counter = Atomic<Int>(0)
    for threads in [1, 4] {
        let timed = nanosecondsPerCall(records, threads: threads) {
            histogram.record(since: DurationHistogram.now())
        }
        let counted = nanosecondsPerCall(records, threads: threads) { counter.add(1, ordering: .relaxed) }
        // The parts: a clock read (kept alive through the counter), and the bucket update alone.
        let clock = nanosecondsPerCall(records, threads: threads) {
            counter.add(DurationHistogram.now() & 1, ordering: .relaxed)
        }
        let recordOnly = nanosecondsPerCall(records, threads: threads) { histogram.record(nanoseconds: 20_000) }
        print(
            String(
                format:
                    "  %d thread%@: record %.1f ns (its clock read %.1f, its buckets %.1f), atomic add %.1f ns: %.1f×",
                threads, threads == 1 ? "" : "s", timed, clock, recordOnly, counted, timed / counted))
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "request timing, \(threads) thread\(threads == 1 ? "" : "s"), ×one atomic increment",
                value: timed, unit: "ns", baseline: "relaxed atomic increment", baselineValue: counted,
                ratio: timed / counted, aim: nil))
    }
    // Five repeats of two recording figures per thread count, two thread counts: every
    // record was counted.
    precondition(histogram.snapshot.count == 20 * records)
}

/// Median ns per call of `body` over 5 repeats, `calls` split over `threads`.
private func nanosecondsPerCall(_ calls: Int, threads: Int, _ body: @escaping @Sendable () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<5 {
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<(calls / threads) { body() }
        }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        samples.append(nanoseconds / Double(calls) * Double(threads))
    }
    return samples.sorted()[samples.count / 2]
}
