import Dispatch
import Glibc
import Synchronization

/// Reports mapped-mode misses to the daemon, so `l10nctl missing` knows of them although
/// no lookup reached it: missed keys are collected per (languages, table) and sent as one
/// `batch` request each, at most every `interval` seconds (the daemon counts a batch's
/// misses like lookups').
///
/// A key missed many times within one interval is reported once. At most `capacity`
/// distinct keys wait; more are dropped until the next flush, so memory stays bounded.
///
/// A process that exits normally (`exit`, or returning from `main`) sends what is pending
/// first, from an `atexit` hook, waiting at most ``exitFlushLimit`` seconds: a short-lived
/// tool's last misses reach the report, and a daemon that is gone or hung never holds up
/// the exit.
final class MissReporter: Sendable {
    /// A reporter, held weakly by the exit hook's list.
    private struct Registration: Sendable {
        weak var reporter: MissReporter?
    }

    /// The longest the exit hook waits for the pending misses to be sent.
    static let exitFlushLimit = 0.5
    /// The live reporters, flushed at exit.
    private static let live = Mutex<[ObjectIdentifier: Registration]>([:])
    private static let exitHookInstalled = Atomic<Bool>(false)

    /// Which table for which preference list a key was missed in.
    struct TableKey: Hashable, Sendable {
        /// Normalised preferred tags, most preferred first.
        var languages: [String]
        /// The table name, `Localizable` for the default.
        var table: String
    }

    private struct State {
        var pending: [TableKey: Set<String>] = [:]
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
        Self.live.withLock { $0[ObjectIdentifier(self)] = Registration(reporter: self) }
        if !Self.exitHookInstalled.exchange(true, ordering: .acquiringAndReleasing) {
            atexit { MissReporter.flushAllBeforeExit() }
        }
    }

    deinit {
        let identifier = ObjectIdentifier(self)
        Self.live.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    /// Sends every live reporter's pending misses, waiting at most `limit` seconds in all.
    /// Each reporter sends on its own: one whose daemon hangs does not hold back another's.
    static func flushAllBeforeExit(limit: Double = exitFlushLimit) {
        let reporters = live.withLock { $0.values.compactMap(\.reporter) }.filter(\.hasPending)
        guard !reporters.isEmpty else { return }
        let sent = DispatchGroup()
        for reporter in reporters {
            DispatchQueue.global().async(group: sent) { reporter.flush() }
        }
        _ = sent.wait(timeout: .now() + limit)
    }

    /// Whether misses wait to be sent.
    var hasPending: Bool { state.withLock { $0.count > 0 } }

    /// Notes that `key` was missing from the table `tableKey` names.
    func record(_ key: String, in tableKey: TableKey) {
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
