import Dispatch
import Glibc
package import LocalizationSockets
package import LocalizationWire
import Synchronization

/// The daemon's Unix socket server: accepts connections on a ``SocketListener``, frames
/// requests in either encoding, passes them to a ``WireRequestHandler`` and writes replies
/// back in request order; keeps the list of subscribers for ``broadcast(_:)``.
///
/// Concurrency: one thread, `l10nd-sockets`, runs everything on the serving path — one
/// ``ReadinessLoop`` (epoll) waits for the listener, every connection's input, room to write
/// where output waits, and the server's timers; the same thread accepts, reads, frames,
/// answers lookups and writes. It owns the connection table: no locks around it, per-connection
/// order for free, and every descriptor's lifetime on one thread. Lookups are in-memory reads
/// that take microseconds, so a second thread would buy little on the two-core hosts this
/// runs on. Long work (a `table` of megabytes, a compile for `map`, a reload) belongs to the
/// handler, which answers from its own queues through the `reply` closure; the reply is
/// handed back to the loop (``ReadinessLoop/post(_:)``, which wakes it through its pipe) and
/// written in the connection's order. Other threads reach the server only that way
/// (``start()``, ``broadcast(_:)``, ``stop(completion:)``); the counters are read from
/// anywhere, behind a mutex.
///
/// No Dispatch source is on this path: a read source per connection cost three thread
/// switches per burst of requests, and registering and cancelling sources under connection
/// churn crashed libdispatch's epoll bookkeeping once (RELIABILITY.md).
///
/// ```swift
/// let server = SocketServer(listener: try SocketListener(path: path), handler: engine)
/// server.start()
/// server.broadcast(.changed(generation: 4, changes: changes))
/// await server.stop()
/// ```
package final class SocketServer: @unchecked Sendable {
    private enum State {
        case idle
        case running
        case draining
        case stopped
    }

    /// How long, at most, the input thread keeps looking for a client's next requests before
    /// it sleeps (nanoseconds), while they keep coming back that soon (``PollingWindow``).
    ///
    /// A client that pipelines sends its next burst as soon as it reads the replies, often
    /// sooner than a halted virtual core wakes (tens of microseconds on the benchmark's
    /// machine), so its bursts are answered without that wake-up (BENCHMARKS.md, the request
    /// path). A client that asks now and then closes the window after a few requests: then
    /// the thread sleeps at once. `L10ND_INPUT_POLLING_NS` in the environment sets another
    /// maximum (0: never look), for the benchmark's with-and-without comparison.
    static let inputPolling: UInt64 = getenv("L10ND_INPUT_POLLING_NS").flatMap { UInt64(String(cString: $0)) } ?? 50_000

    /// The listener's token in the loop; connections are numbered from 1.
    private static let listenerToken: UInt64 = 0

    /// The limits this server enforces; owned by the loop's thread once started
    /// (``updateLimits(_:)``).
    package private(set) var limits: ServerLimits
    /// The user ids that may use the connections ``ServerLimits/operatorSlots`` keeps
    /// (`SO_PEERCRED` at accept): root and the daemon's own user.
    package let operators: Set<UInt32>
    let handler: any WireRequestHandler
    /// Shared by every connection's reads: they run one at a time on the loop's thread.
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The serving path's one loop; `nil` when its descriptors could not be made, and then
    /// the daemon refuses to start.
    let readiness: ReadinessLoop?
    /// Why ``readiness`` is `nil`: the daemon refuses to start with it.
    let readinessError: SocketError?

    private let counters = Mutex(SocketServerStatistics())
    private let loopStarted = Atomic<Bool>(false)
    /// Who waits for ``stop(completion:)`` to end; `nil` once it has.
    private let stopWaiters = Mutex<[@Sendable () -> Void]?>([])

    // Confined to the loop's thread (what makes the `@unchecked Sendable` sound; checked by
    // `assertOnLoop` where work arrives other than through the public methods, which post
    // onto the loop):
    private var listener: SocketListener
    private var state = State.idle
    private var listenerWatched = false
    /// When accepting resumes after running out of descriptors (uptime nanoseconds).
    private var acceptResumesAt: UInt64?
    /// The next sweep for connections that broke a time limit (idle, request, drain stall).
    private var nextSweep: UInt64?
    private var sweepInterval: UInt64 = 0
    /// While stopping: when the requests still unanswered are answered `unavailable`, and
    /// then when every connection is closed whatever it still owes.
    private var drainDeadline: UInt64?
    private var abandonDeadline: UInt64?
    private var connections: [UInt64: ClientConnection] = [:]
    private var nextConnectionNumber: UInt64 = 1
    /// Work the loop's own thread left for the end of this turn (a connection's buffered
    /// requests after a pause): run before the loop looks for input again.
    private var deferred: [() -> Void] = []

    /// Creates a server; nothing happens until ``start()``. `operators`: the user ids the
    /// kept connections are for (root and this process's user by default).
    package init(
        listener: SocketListener, handler: any WireRequestHandler, limits: ServerLimits = ServerLimits(),
        operators: Set<UInt32> = [0, getuid()]
    ) {
        self.listener = listener
        self.handler = handler
        self.limits = limits
        self.operators = operators
        do {
            readiness = try ReadinessLoop()
            readinessError = nil
        } catch {
            readiness = nil
            readinessError = error
        }
    }

    /// The counters as they are now.
    package var statistics: SocketServerStatistics {
        counters.withLock { $0 }
    }

    func count(_ update: (inout SocketServerStatistics) -> Void) {
        counters.withLock { update(&$0) }
    }

    /// Enforces `newLimits` from now on (a configuration reload): `max_connections` at once,
    /// the others on the connections accepted after; those open keep the limits they had.
    package func updateLimits(_ newLimits: ServerLimits) {
        onLoop { [self] in limits = newLimits }
    }

    /// Whether the caller runs on the loop's thread, which owns the server's state.
    var isOnLoop: Bool { readiness?.isCurrentThread ?? false }

    func assertOnLoop() {
        assert(isOnLoop, "the socket server's state belongs to its loop's thread")
    }

    /// Runs `work` on the loop's thread: at once when already there, else posted.
    func onLoop(_ work: @escaping @Sendable () -> Void) {
        if isOnLoop { work() } else { readiness?.post(work) }
    }

    /// Runs `work` on the loop's thread at the end of the current turn.
    func later(_ work: @escaping () -> Void) {
        assertOnLoop()
        deferred.append(work)
    }

    /// Starts accepting connections.
    package func start() {
        startLoop()
        readiness?.post { [self] in
            guard case .idle = state else { return }
            state = .running
            startAccepting()
            // A quarter of the shortest limit: a limit is enforced at most 25% late.
            let checkInterval = max(0.05, min(limits.idleTimeout / 4, limits.requestTimeout / 4, 5))
            sweepInterval = UInt64(checkInterval * 1e9)
            nextSweep = Self.now() + sweepInterval
        }
    }

    /// Accepts on `newListener` from now on, closing the current one; the connections
    /// already accepted are not touched. For a socket file that was removed: the daemon
    /// binds a new one at the same path and hands it over here. Closes `newListener` if the
    /// server is no longer running.
    package func replaceListener(with newListener: SocketListener) {
        guard let readiness else { return newListener.close() }
        readiness.post { [self] in
            guard case .running = state else {
                newListener.close()
                return
            }
            listener.disownFile()
            stopAccepting()
            listener.close()
            listener = newListener
            acceptResumesAt = nil
            startAccepting()
        }
    }

    /// Sends `event` to every subscribed connection, in the encoding it subscribed with,
    /// after the replies it is already owed.
    package func broadcast(_ event: WireEvent) {
        readiness?.post { [self] in
            let subscribers = connections.values.filter { $0.subscription != nil }
            guard !subscribers.isEmpty else { return }
            var encoded: [WireEncoding: [UInt8]] = [:]
            for connection in subscribers {
                guard let encoding = connection.subscription else { continue }
                let bytes = encoded[encoding] ?? WireCodec.encode(.event(event), as: encoding)
                encoded[encoding] = bytes
                connection.push(bytes)
            }
            count { $0.eventsBroadcast += 1 }
        }
    }

    /// Stops gracefully: stops accepting (removing the socket file unless adopted), stops
    /// reading, lets every connection finish writing what it owes — at most
    /// ``ServerLimits/drainTimeout`` seconds, after which the requests still unanswered are
    /// answered `unavailable` (a `map` waiting for a compile, say), never left to see the
    /// connection close — then closes them and calls `completion`.
    package func stop(completion: @escaping @Sendable () -> Void = {}) {
        // Outside the loop: once the server has stopped, its loop runs nothing more.
        let stopped = stopWaiters.withLock { waiters in
            waiters?.append(completion)
            return waiters == nil
        }
        if stopped { return completion() }
        guard let readiness else {
            listener.close()
            return finishStop()
        }
        startLoop()
        readiness.post { [self] in
            switch state {
            case .stopped, .draining:
                return
            case .idle, .running:
                break
            }
            state = .draining
            // Now, not later: the process may exit as soon as we drain.
            listener.removeSocketFile()
            stopAccepting()
            listener.close()
            // While draining, a client that does not read what it is owed is let go within
            // `drainStallTimeout`, so a stop never waits on it.
            let stallCheck = max(0.02, min(limits.drainStallTimeout / 4, 0.1))
            sweepInterval = UInt64(stallCheck * 1e9)
            nextSweep = Self.now() + sweepInterval
            drainDeadline = Self.now() + UInt64(limits.drainTimeout * 1e9)
            for connection in Array(connections.values) { connection.beginDraining() }
            finishStopIfDrained()
        }
    }

    /// Stops gracefully; see ``stop(completion:)``.
    package func stop() async {
        await withCheckedContinuation { continuation in
            stop { continuation.resume() }
        }
    }

    // MARK: The loop

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Starts the loop's thread, once.
    private func startLoop() {
        guard let readiness, !loopStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // The thread holds the server until `stop` ends it: a weak reference would move the
        // server's reference counts to a side table, slowing every retain of it.
        readiness.start(name: "l10nd-sockets", polling: Self.inputPolling) { [self] tokens, _ in
            turn(tokens)
        }
    }

    /// One turn of the loop: what is ready, the timers that are due, the work left for the
    /// end of the turn; returns when the loop must run next even with nothing ready.
    private func turn(_ tokens: [UInt64]) -> UInt64? {
        for token in tokens {
            if token == Self.listenerToken {
                acceptConnections()
            } else {
                connections[token]?.ready()
            }
        }
        runDueTimers()
        while !deferred.isEmpty {
            let work = deferred
            deferred.removeAll()
            for item in work { item() }
        }
        return [acceptResumesAt, nextSweep, drainDeadline, abandonDeadline].compactMap { $0 }.min()
    }

    private func runDueTimers() {
        let now = Self.now()
        if let at = acceptResumesAt, at <= now {
            acceptResumesAt = nil
            if case .running = state { startAccepting() }
        }
        if let at = nextSweep, at <= now {
            nextSweep = now + sweepInterval
            closeOverdueConnections(now: now)
        }
        if let at = drainDeadline, at <= now {
            drainDeadline = nil
            // What is still unanswered will not be in time: say so, write what the sockets
            // take, and close whatever is left a stall's time later.
            abandonDeadline = now + UInt64(max(limits.drainStallTimeout, 0.05) * 1e9)
            for connection in Array(connections.values) { connection.answerPendingAsUnavailable() }
        }
        if let at = abandonDeadline, at <= now {
            abandonDeadline = nil
            for connection in Array(connections.values) { connection.close() }
        }
    }

    // MARK: Accepting, on the loop

    private func startAccepting() {
        guard !listenerWatched, let readiness else { return }
        do {
            try readiness.watch(listener.descriptor, token: Self.listenerToken)
            listenerWatched = true
        } catch {
            // No room in the epoll set (out of memory): try again as after running out of
            // descriptors, rather than never accepting again.
            acceptResumesAt = Self.now() + 100_000_000
        }
    }

    private func stopAccepting() {
        guard listenerWatched else { return }
        readiness?.unwatch(listener.descriptor)
        listenerWatched = false
    }

    private func acceptConnections() {
        assertOnLoop()
        guard case .running = state, listenerWatched else { return }
        // Bounded so a connection storm cannot starve the clients already connected.
        for _ in 0..<64 {
            let connection: FileDescriptor
            do {
                connection = try FileDescriptor(systemCall: "accept") { accept(listener.descriptor, nil, nil) }
            } catch {
                switch error.errno {
                case EMFILE?, ENFILE?, ENOBUFS?, ENOMEM?:
                    // Out of descriptors: the pending connection would wake us in a busy loop;
                    // pause accepting briefly instead.
                    pauseAccepting()
                default:
                    break
                }
                return
            }
            // Glibc hides accept4 behind _GNU_SOURCE, so the flags are set here instead.
            let descriptor = connection.rawValue
            do {
                let flags = try SystemCall.run("fcntl(F_GETFL)") { fcntl(descriptor, F_GETFL) }
                try SystemCall.run("fcntl(F_SETFL)") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
                try SystemCall.run("fcntl(F_SETFD)") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            } catch {
                continue  // `connection` closes as it goes out of scope
            }
            admit(connection)
        }
    }

    private func admit(_ socket: consuming FileDescriptor) {
        let peer = PeerInfo.of(socket: socket) ?? PeerInfo(pid: 0, uid: UInt32.max, gid: UInt32.max)
        // The last few connections are kept for the operator: at the limit, `l10nctl status`
        // run by root or the daemon's user still gets in (the kernel vouches for the uid).
        let kept = operators.contains(peer.uid) ? 0 : limits.keptForOperators
        guard connections.count < limits.maxConnections - kept else {
            var reason = "l10nd is at its connection limit (max_connections = \(limits.maxConnections)"
            if kept > 0 { reason += ", of which \(kept) are kept for root and l10nd's own user" }
            reason += "); try again later"
            let reply = JSONLineCodec.encode(
                .reply(id: nil, .error(WireError(code: .unavailable, message: reason))))
            count { $0.connectionsRefused += 1 }
            // Best effort: the socket buffer of a new connection always has room for one line.
            let descriptor = socket.rawValue
            _ = reply.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            socket.close()
            return
        }
        let connection = ClientConnection(
            socket: socket, peer: peer, number: nextConnectionNumber, server: self, limits: limits)
        nextConnectionNumber += 1
        connections[connection.number] = connection
        count {
            $0.connectionsAccepted += 1
            $0.connectionsCurrent += 1
        }
        connection.start()
    }

    private func pauseAccepting() {
        guard listenerWatched else { return }
        count { $0.acceptPauses += 1 }
        stopAccepting()
        acceptResumesAt = Self.now() + 100_000_000
    }

    private func closeOverdueConnections(now: UInt64) {
        assertOnLoop()
        let stopping = if case .draining = state { true } else { false }
        for connection in Array(connections.values) { connection.closeIfOverdue(now: now, stopping: stopping) }
    }

    func connectionClosed(_ connection: ClientConnection, wasSubscribed: Bool) {
        assertOnLoop()
        connections[connection.number] = nil
        count {
            $0.connectionsCurrent -= 1
            if wasSubscribed { $0.subscribers -= 1 }
        }
        finishStopIfDrained()
    }

    private func finishStopIfDrained() {
        guard case .draining = state, connections.isEmpty else { return }
        state = .stopped
        nextSweep = nil
        drainDeadline = nil
        abandonDeadline = nil
        readiness?.stop()
        finishStop()
    }

    private func finishStop() {
        let completions = stopWaiters.withLock { waiters in
            defer { waiters = nil }
            return waiters ?? []
        }
        for completion in completions { completion() }
    }
}
