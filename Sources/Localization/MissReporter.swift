import Dispatch
import Synchronization

/// Reports cached-mode misses to the daemon, so `l10nctl missing` knows of them although
/// no lookup reached it: missed keys are collected per (languages, table) and sent as one
/// `batch` request each, at most every `interval` seconds (the daemon counts a batch's
/// misses like lookups').
///
/// A key missed many times within one interval is reported once. At most `capacity`
/// distinct keys wait; more are dropped until the next flush, so memory stays bounded.
final class MissReporter: Sendable {
    private struct State {
        var pending: [ResolvedTable.Key: Set<String>] = [:]
        var count = 0
        var scheduled = false
    }

    private let state = Mutex(State())
    private let interval: Double
    private let capacity: Int
    private let send: @Sendable (WireBatch) -> Void

    /// One batch to send.
    struct WireBatch: Sendable {
        var keys: [String]
        var languages: [String]
        var table: String
    }

    init(interval: Double = 0.2, capacity: Int = 4096, send: @escaping @Sendable (WireBatch) -> Void) {
        self.interval = interval
        self.capacity = capacity
        self.send = send
    }

    /// Notes that `key` was missing from the table `tableKey` names.
    func record(_ key: String, in tableKey: ResolvedTable.Key) {
        let schedule = state.withLock { state -> Bool in
            guard state.count < capacity else { return false }
            if state.pending[tableKey, default: []].insert(key).inserted { state.count += 1 }
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule {
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [self] in flush() }
        }
    }

    /// Sends what is pending now.
    func flush() {
        let pending = state.withLock { state in
            defer { state = State() }
            return state.pending
        }
        for (key, keys) in pending {
            send(WireBatch(keys: keys.sorted(), languages: key.languages, table: key.table))
        }
    }
}
