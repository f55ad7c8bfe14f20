import Synchronization

/// The running counts behind ``PollingStatistics``: written by the loop's thread alone,
/// read from any.
///
/// One writer, so a count goes up by a plain load and store instead of a locked add: the
/// loop pays nothing measurable per idle stretch.
final class PollingCounters: Sendable {
    let idleStretches = Atomic<Int>(0)
    let looks = Atomic<Int>(0)
    let caught = Atomic<Int>(0)
    let sleeps = Atomic<Int>(0)
    let sharedCore = Atomic<Int>(0)
    let lostCore = Atomic<Int>(0)
    let held = Atomic<Int>(0)

    /// The counts so far.
    var snapshot: PollingStatistics {
        var statistics = PollingStatistics()
        statistics.idleStretches = idleStretches.load(ordering: .relaxed)
        statistics.looks = looks.load(ordering: .relaxed)
        statistics.caught = caught.load(ordering: .relaxed)
        statistics.sleeps = sleeps.load(ordering: .relaxed)
        statistics.sharedCore = sharedCore.load(ordering: .relaxed)
        statistics.lostCore = lostCore.load(ordering: .relaxed)
        statistics.held = held.load(ordering: .relaxed)
        return statistics
    }
}

extension Atomic where Value == Int {
    /// Adds one, for a count only one thread writes (a plain load and store, no lock).
    func countBySoleWriter() {
        store(load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }
}
