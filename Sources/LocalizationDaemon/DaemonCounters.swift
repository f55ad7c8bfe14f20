import Synchronization

/// The lookup engine's and reloader's counters, for `status` and `STATUS=` lines.
///
/// Atomics, not a lock: lookups bump them on every request.
public final class DaemonCounters: Sendable {
    /// One counter.
    public enum Counter: Sendable, CaseIterable {
        /// Lookups answered (each key of a batch counts).
        case lookups
        /// Lookups whose key no language had.
        case misses
        /// Refreshes that changed at least one table.
        case reloads
        /// Full rescans (start, `reload`, SIGHUP, queue overflow).
        case rescans
        /// Files parsed again because their bytes changed.
        case filesParsed

        /// Its name among `status`'s `counters`.
        public var statusName: String {
            switch self {
            case .lookups: "lookups"
            case .misses: "misses"
            case .reloads: "reloads"
            case .rescans: "rescans"
            case .filesParsed: "files_parsed"
            }
        }
    }

    private let lookups = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let reloads = Atomic<Int>(0)
    private let rescans = Atomic<Int>(0)
    private let filesParsed = Atomic<Int>(0)

    /// Creates zeroed counters.
    public init() {}

    /// Adds `amount` to `counter`.
    public func add(_ amount: Int, to counter: Counter) {
        switch counter {
        case .lookups: lookups.add(amount, ordering: .relaxed)
        case .misses: misses.add(amount, ordering: .relaxed)
        case .reloads: reloads.add(amount, ordering: .relaxed)
        case .rescans: rescans.add(amount, ordering: .relaxed)
        case .filesParsed: filesParsed.add(amount, ordering: .relaxed)
        }
    }

    /// Sets `counter` to zero and returns what it held, in one step: no increment made
    /// meanwhile is lost or counted twice.
    public func reset(_ counter: Counter) -> Int {
        switch counter {
        case .lookups: lookups.exchange(0, ordering: .relaxed)
        case .misses: misses.exchange(0, ordering: .relaxed)
        case .reloads: reloads.exchange(0, ordering: .relaxed)
        case .rescans: rescans.exchange(0, ordering: .relaxed)
        case .filesParsed: filesParsed.exchange(0, ordering: .relaxed)
        }
    }

    /// The value of `counter` now.
    public func value(_ counter: Counter) -> Int {
        switch counter {
        case .lookups: lookups.load(ordering: .relaxed)
        case .misses: misses.load(ordering: .relaxed)
        case .reloads: reloads.load(ordering: .relaxed)
        case .rescans: rescans.load(ordering: .relaxed)
        case .filesParsed: filesParsed.load(ordering: .relaxed)
        }
    }
}
