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
/// distinct keys wait, so memory stays bounded; a batch that finds the daemon unreachable
/// (nothing was sent) waits again. While no connection is up nothing is tried (as the C
/// library skips while l10nd is away): the keys wait for the connection to come back
/// (``connectionIsUp()``), not for a retry. A key past the capacity, or in a batch that
/// failed otherwise, is not reported, and never silently: one line on standard error counts
/// them (the C library's words) at most every `noticeInterval` seconds, and at the
/// reporter's end or the process's exit.
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
        /// Keys not reported since the last line said so: no room for them, their batch failed.
        var pastCapacity = 0
        var unsent = 0
        /// Keys sent whose batch is not answered yet (not sent, if the process exits first).
        var inFlight = 0
        /// When the last line counting keys not reported was written (uptime nanoseconds; 0: never).
        var lastSaid: UInt64 = 0

        /// Notes `key` to send unless it waits already; past `capacity`, counts it instead.
        mutating func hold(_ key: String, in tableKey: TableKey, capacity: Int) {
            guard pending[tableKey]?.contains(key) != true else { return }
            guard count < capacity else { return pastCapacity += 1 }
            pending[tableKey, default: []].insert(key)
            count += 1
        }
    }

    /// How a batch's send ended.
    enum Outcome: Sendable {
        /// The daemon answered it.
        case answered
        /// No connection was up: nothing was sent, and the keys wait for the next send.
        case unreachable
        /// It was sent, but the connection ended before the answer.
        case failed
    }

    private let state = ForkSafeMutex(State())
    private let interval: Double
    private let capacity: Int
    private let noticeInterval: Double
    /// Where the line counting keys not reported goes.
    private let say: @Sendable (String) -> Void
    /// Sends one batch without waiting, and calls the function it is given once the daemon
    /// answered or the request failed.
    private let send: @Sendable (WireBatch, @escaping @Sendable (Outcome) -> Void) -> Void
    /// Whether a connection is up now: while none is, a miss due to be sent waits instead.
    private let isConnected: @Sendable () -> Bool
    /// How many batches were handed to `send`: what tests count to see that none is tried
    /// while the daemon is away.
    private let attempts = Atomic<Int>(0)

    /// One batch to send.
    struct WireBatch: Sendable {
        var keys: [String]
        var languages: [String]
        var table: String
    }

    init(
        interval: Double = 0.2, capacity: Int = 4096, noticeInterval: Double = 60,
        say: @escaping @Sendable (String) -> Void = MissReporter.writeToStandardError,
        isConnected: @escaping @Sendable () -> Bool = { true },
        send: @escaping @Sendable (WireBatch, @escaping @Sendable (Outcome) -> Void) -> Void
    ) {
        self.interval = interval
        self.capacity = capacity
        self.noticeInterval = noticeInterval
        self.say = say
        self.isConnected = isConnected
        self.send = send
        Self.live.withLock { $0[ObjectIdentifier(self)] = Registration(reporter: self) }
        if !Self.exitHookInstalled.exchange(true, ordering: .acquiringAndReleasing) {
            atexit { MissReporter.flushAllBeforeExit() }
        }
    }

    /// A reporter whose batches go to the daemon through `client`; whoever hears the client's
    /// events calls ``connectionIsUp()`` at each connection.
    convenience init(
        sendingThrough client: LocalizationClient,
        say: @escaping @Sendable (String) -> Void = MissReporter.writeToStandardError
    ) {
        self.init(say: say, isConnected: { client.isConnected }) { batch, done in
            // No time limit: a report the daemon is slow to answer never ends the connection.
            do {
                try client.submit(
                    .batch(keys: batch.keys, languages: batch.languages, table: batch.table), timeLimit: nil,
                    background: true
                ) { result in
                    if case .success = result { done(.answered) } else { done(.failed) }
                }
            } catch {
                done(.unreachable)
            }
        }
    }

    deinit {
        let identifier = ObjectIdentifier(self)
        Self.live.withLock { _ = $0.removeValue(forKey: identifier) }
        // Every batch is answered (each holds the reporter): what waits now is never sent.
        sayWhatIsLeft()
    }

    /// Writes `line` on standard error.
    @Sendable static func writeToStandardError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// Sends every live reporter's pending misses, waiting at most `limit` seconds in all.
    /// Each reporter sends on its own: one whose daemon hangs does not hold back another's.
    static func flushAllBeforeExit(limit: Double = exitFlushLimit) {
        let reporters = live.withLock { $0.values.compactMap(\.reporter) }.filter(\.hasPending)
        let sent = DispatchGroup()
        for reporter in reporters { reporter.flush(group: sent) }
        _ = sent.wait(timeout: .now() + limit)
        for reporter in live.withLock({ $0.values.compactMap(\.reporter) }) { reporter.sayWhatIsLeft() }
    }

    /// Whether misses wait to be sent.
    var hasPending: Bool { state.withLock { $0.count > 0 } }

    /// How many batches were handed to the send function so far.
    var sendAttempts: Int { attempts.load(ordering: .relaxed) }

    /// Notes that `key` was missing from the table `tableKey` names.
    func record(_ key: String, in tableKey: TableKey) {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> Bool in
            state.hold(key, in: tableKey, capacity: capacity)
            return state.lastSent == 0 || now &- state.lastSent >= UInt64(interval * 1e9)
        }
        // While the daemon is away the keys wait for ``connectionIsUp()``: one atomic load,
        // no attempt at sending. (A send that still finds it gone holds its keys again.)
        if due && isConnected() { flush() }
    }

    /// A connection to the daemon is up: what waits is sent now, not at the next miss.
    func connectionIsUp() {
        if hasPending { flush() }
    }

    /// Sends what is pending now, without waiting; each batch enters `group` until answered.
    func flush(group: DispatchGroup? = nil) {
        let pending = state.withLock { state in
            defer {
                state.pending = [:]
                state.inFlight += state.count
                state.count = 0
                state.lastSent = DispatchTime.now().uptimeNanoseconds
            }
            return state.pending
        }
        for (tableKey, keys) in pending {
            group?.enter()
            attempts.add(1, ordering: .relaxed)
            send(WireBatch(keys: keys.sorted(), languages: tableKey.languages, table: tableKey.table)) { outcome in
                self.state.withLock { state in
                    state.inFlight = max(0, state.inFlight - keys.count)
                    switch outcome {
                    case .answered: break
                    case .unreachable: for key in keys { state.hold(key, in: tableKey, capacity: self.capacity) }
                    case .failed: state.unsent += keys.count
                    }
                }
                self.sayUnreported(now: false)
                group?.leave()
            }
        }
    }

    /// Writes the line counting the keys not reported since the last such line, if any: at
    /// most every `noticeInterval` seconds unless `now`, so a long outage says it once a
    /// minute, not once a lookup.
    private func sayUnreported(now: Bool) {
        let clock = DispatchTime.now().uptimeNanoseconds
        let line = state.withLock { state -> String? in
            let total = state.pastCapacity + state.unsent
            guard total > 0,
                now || state.lastSaid == 0 || clock &- state.lastSaid >= UInt64(noticeInterval * 1e9)
            else { return nil }
            defer { (state.pastCapacity, state.unsent, state.lastSaid) = (0, 0, clock) }
            return "l10nd-client: \(total) misses and fallbacks answered in place were not reported to l10nd's "
                + "missing-key report (\(state.pastCapacity) past the \(capacity) keys that may wait, "
                + "\(state.unsent) that could not be sent)"
        }
        if let line { say(line) }
    }

    /// At the reporter's end or the process's exit: what still waits, or is sent but not
    /// answered, is counted as not sent, and the line says what was not reported.
    private func sayWhatIsLeft() {
        state.withLock { state in
            state.unsent += state.count + state.inFlight
            (state.pending, state.count, state.inFlight) = ([:], 0, 0)
        }
        sayUnreported(now: true)
    }
}
