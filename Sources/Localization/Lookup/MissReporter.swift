import Dispatch
import Glibc
import Synchronization

/// Reports mapped-mode misses to the daemon, so `l10nctl missing` knows of them although
/// no lookup reached it: missed keys are collected per (languages, table) and sent as one
/// `batch` request each, at most every `interval` seconds: by the lookup that records a miss
/// once the interval has passed since the last send (the daemon counts a batch's misses like
/// lookups'). No timer and no queue of its own: a process's library runs one thread, and a
/// child made by `fork()` may not use the parent's Dispatch queues.
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
    private static let live = ForkSafeMutex<[ObjectIdentifier: Registration]>([:])
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
        /// When the last batches were sent (uptime nanoseconds; 0: never).
        var lastSent: UInt64 = 0
    }

    private let state = ForkSafeMutex(State())
    private let interval: Double
    private let capacity: Int
    /// Sends one batch without waiting, and calls the function it is given once the daemon
    /// answered or the request failed.
    private let send: @Sendable (WireBatch, @escaping @Sendable () -> Void) -> Void

    /// One batch to send.
    struct WireBatch: Sendable {
        var keys: [String]
        var languages: [String]
        var table: String
    }

    init(
        interval: Double = 0.2, capacity: Int = 4096,
        send: @escaping @Sendable (WireBatch, @escaping @Sendable () -> Void) -> Void
    ) {
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
        for reporter in reporters { reporter.flush(group: sent) }
        _ = sent.wait(timeout: .now() + limit)
    }

    /// Whether misses wait to be sent.
    var hasPending: Bool { state.withLock { $0.count > 0 } }

    /// Notes that `key` was missing from the table `tableKey` names.
    func record(_ key: String, in tableKey: TableKey) {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> Bool in
            if state.count < capacity, state.pending[tableKey, default: []].insert(key).inserted { state.count += 1 }
            return state.lastSent == 0 || now &- state.lastSent >= UInt64(interval * 1e9)
        }
        if due { flush() }
    }

    /// Sends what is pending now, without waiting; each batch enters `group` until answered.
    func flush(group: DispatchGroup? = nil) {
        let pending = state.withLock { state in
            defer { state = State(lastSent: DispatchTime.now().uptimeNanoseconds) }
            return state.pending
        }
        for (key, keys) in pending {
            group?.enter()
            send(WireBatch(keys: keys.sorted(), languages: key.languages, table: key.table)) { group?.leave() }
        }
    }
}
