package import LocalizationWire
import Synchronization

/// The lookup engine's and reloader's counters and latency histograms, for `status`,
/// `metrics` and `STATUS=` lines.
///
/// Atomics, not a lock: lookups bump them on every request. Nothing here is ever reset:
/// counters count since start, as a scraper computing rates needs (`reset` empties only the
/// missing-key report).
package final class DaemonCounters: Sendable {
    /// One counter; its raw value is its name among `status`'s `counters`.
    package enum Counter: String, Sendable, CaseIterable {
        /// Lookups some language answered (each key of a batch counts).
        case found
        /// Lookups whose key no language had, in a table some language has.
        case misses
        /// Lookups in a table no language has: a mistaken table name, not a missing key.
        case unknownTables = "unknown_table_lookups"
        /// Refreshes that changed at least one table.
        case reloads
        /// Full rescans (start, `reload`, SIGHUP, queue overflow).
        case rescans
        /// Files parsed again because their bytes changed.
        case filesParsed = "files_parsed"
    }

    private let found = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let unknownTables = Atomic<Int>(0)
    private let reloads = Atomic<Int>(0)
    private let rescans = Atomic<Int>(0)
    private let filesParsed = Atomic<Int>(0)

    /// How long each request took, from its decoding to its reply being handed to the
    /// connection, one histogram per operation (indexed by op code).
    private let requestDurations: [DurationHistogram]
    /// How long each reload took: a refresh after file events, or a full rescan.
    package let reloadDurations = DurationHistogram(bounds: DurationHistogram.reloadBounds)

    /// Creates zeroed counters and empty histograms.
    package init() {
        let highestCode = Int(WireOperationKind.allCases.map(\.rawValue).max() ?? 0)
        requestDurations = (0...highestCode).map { _ in DurationHistogram(bounds: DurationHistogram.requestBounds) }
    }

    /// The request-latency histogram of `operation`.
    package func requestDurations(_ operation: WireOperationKind) -> DurationHistogram {
        requestDurations[Int(operation.rawValue)]
    }

    /// Adds `amount` to `counter`.
    package func add(_ amount: Int, to counter: Counter) {
        switch counter {
        case .found: found.add(amount, ordering: .relaxed)
        case .misses: misses.add(amount, ordering: .relaxed)
        case .unknownTables: unknownTables.add(amount, ordering: .relaxed)
        case .reloads: reloads.add(amount, ordering: .relaxed)
        case .rescans: rescans.add(amount, ordering: .relaxed)
        case .filesParsed: filesParsed.add(amount, ordering: .relaxed)
        }
    }

    /// Every lookup answered, found or not. Found and missed lookups are counted apart, so
    /// that each of `l10nd_lookups_total{found=…}` only ever grows, whenever it is read.
    package var lookups: Int { value(.found) + value(.misses) + value(.unknownTables) }

    /// The value of `counter` now.
    package func value(_ counter: Counter) -> Int {
        switch counter {
        case .found: found.load(ordering: .relaxed)
        case .misses: misses.load(ordering: .relaxed)
        case .unknownTables: unknownTables.load(ordering: .relaxed)
        case .reloads: reloads.load(ordering: .relaxed)
        case .rescans: rescans.load(ordering: .relaxed)
        case .filesParsed: filesParsed.load(ordering: .relaxed)
        }
    }
}
