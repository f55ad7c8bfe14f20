import Dispatch
import Glibc
package import LocalizationSockets
package import LocalizationWire
import Synchronization

/// The daemon's Unix socket server: accepts connections on a ``SocketListener``, frames
/// requests in either encoding, passes them to a ``WireRequestHandler`` and writes replies
/// back in request order; keeps the list of subscribers for ``broadcast(_:)``.
///
/// Concurrency: one serial queue runs everything — accepting, reading, framing, calling the
/// handler, writing. Lookups are in-memory reads that take microseconds, so a second thread
/// would buy little on the two-core hosts this runs on, while a single queue needs no locks
/// around the connection table, makes per-connection ordering trivial, and keeps every
/// descriptor's lifetime on one thread. Slow work (a reload) belongs to the handler, which
/// answers later through its `reply` closure. Only the counters are read from elsewhere,
/// behind a mutex.
///
/// Input is waited for by one ``ReadinessLoop`` thread for all connections, which then runs
/// the reads on the queue with `sync`, on its own thread: a Dispatch read source per
/// connection would cost three thread switches per burst of requests (see the loop), and a
/// pipelining client's requests would wait for each.
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
    /// the thread sleeps at once.
    static let inputPolling: UInt64 = 50_000

    /// The limits this server enforces; confined to `queue` once started (``updateLimits(_:)``).
    package private(set) var limits: ServerLimits
    let handler: any WireRequestHandler
    let queueKey = DispatchSpecificKey<Bool>()
    /// Shared by every connection's reads: they run one at a time on `queue`.
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Waits for input on every connection at once; `nil` when its descriptors could not be
    /// made, and then connections are refused.
    let readiness: ReadinessLoop?
    /// Why ``readiness`` is `nil`: the daemon refuses to start with it.
    let readinessError: SocketError?

    private let queue: DispatchQueue
    private let counters = Mutex(SocketServerStatistics())

    // Confined to `queue` (what makes the `@unchecked Sendable` sound; checked by
    // dispatchPrecondition where work arrives on it other than through the public methods,
    // which hop onto it):
    private var listener: SocketListener
    private var state = State.idle
    private var acceptSource: (any DispatchSourceRead)?
    private var acceptSuspended = false
    /// Closes the connections that broke a time limit (idle, request, drain stall).
    private var sweepTimer: (any DispatchSourceTimer)?
    private var connections: [UInt64: ClientConnection] = [:]
    private var nextConnectionNumber: UInt64 = 1
    private var stopCompletions: [@Sendable () -> Void] = []

    /// Creates a server; nothing happens until ``start()``.
    package init(listener: SocketListener, handler: any WireRequestHandler, limits: ServerLimits = ServerLimits()) {
        self.listener = listener
        self.handler = handler
        self.limits = limits
        self.queue = DispatchQueue(label: "l10nd.socket-server")
        queue.setSpecific(key: queueKey, value: true)
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
        queue.async { [self] in limits = newLimits }
    }

    /// Starts accepting connections.
    package func start() {
        queue.async { [self] in
            guard case .idle = state else { return }
            state = .running
            // Reads run on the thread that saw the input, inside the queue (`sync` runs the
            // block on the calling thread): no thread switch between a request and its reply.
            // The thread holds the server until `stop` ends it: a weak reference would move
            // the server's reference counts to a side table, slowing every retain of it.
            readiness?.start(name: "l10nd-sockets", polling: Self.inputPolling) { [self] tokens in
                queue.sync {
                    for token in tokens { connections[token]?.readAvailable() }
                }
            }
            startAccepting()
            // A quarter of the shortest limit: a limit is enforced at most 25% late.
            let checkInterval = max(0.05, min(limits.idleTimeout / 4, limits.requestTimeout / 4, 5))
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + checkInterval, repeating: checkInterval, leeway: .milliseconds(50))
            timer.setEventHandler { [unowned self] in closeOverdueConnections() }
            sweepTimer = timer
            timer.resume()
        }
    }

    /// Accepts on `newListener` from now on, closing the current one; the connections
    /// already accepted are not touched. For a socket file that was removed: the daemon
    /// binds a new one at the same path and hands it over here. Closes `newListener` if the
    /// server is no longer running.
    package func replaceListener(with newListener: SocketListener) {
        queue.async { [self] in
            guard case .running = state else {
                newListener.close()
                return
            }
            listener.disownFile()
            if let acceptSource {
                if acceptSuspended { acceptSource.resume() }
                acceptSuspended = false
                acceptSource.cancel()  // its cancel handler closes the old listener
            }
            listener = newListener
            startAccepting()
        }
    }

    /// Sends `event` to every subscribed connection, in the encoding it subscribed with,
    /// after the replies it is already owed.
    package func broadcast(_ event: WireEvent) {
        queue.async { [self] in
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
    /// ``ServerLimits/drainTimeout`` seconds — then closes them and calls `completion`.
    package func stop(completion: @escaping @Sendable () -> Void = {}) {
        queue.async { [self] in
            switch state {
            case .stopped:
                completion()
                return
            case .draining:
                stopCompletions.append(completion)
                return
            case .idle, .running:
                stopCompletions.append(completion)
            }
            state = .draining
            // Now, not in the cancel handler: the process may exit as soon as we drain.
            listener.removeSocketFile()
            if let acceptSource {
                if acceptSuspended { acceptSource.resume() }
                acceptSource.cancel()
            } else {
                listener.close()
            }
            // While draining, a client that does not read what it is owed is let go within
            // `drainStallTimeout`, so a stop never waits on it.
            let stallCheck = max(0.02, min(limits.drainStallTimeout / 4, 0.1))
            sweepTimer?.schedule(deadline: .now() + stallCheck, repeating: stallCheck, leeway: .milliseconds(10))
            for connection in Array(connections.values) { connection.beginDraining() }
            queue.asyncAfter(deadline: .now() + limits.drainTimeout) { [self] in
                for connection in Array(connections.values) { connection.close() }
            }
            finishStopIfDrained()
        }
    }

    /// Stops gracefully; see ``stop(completion:)``.
    package func stop() async {
        await withCheckedContinuation { continuation in
            stop { continuation.resume() }
        }
    }

    // MARK: Internals, on `queue`

    private func startAccepting() {
        let source = DispatchSource.makeReadSource(fileDescriptor: listener.descriptor, queue: queue)
        source.setEventHandler { [unowned self] in acceptConnections() }
        source.setCancelHandler { [listener] in listener.close() }
        acceptSource = source
        source.resume()
    }

    private func acceptConnections() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .running = state else { return }
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
        guard connections.count < limits.maxConnections, readiness != nil else {
            let reason =
                readiness == nil
                ? "l10nd cannot wait for input on connections"
                : "l10nd is at its connection limit (max_connections = \(limits.maxConnections)); try again later"
            let reply = JSONLineCodec.encode(
                .reply(id: nil, .error(WireError(code: .unavailable, message: reason))))
            count { $0.connectionsRefused += 1 }
            // Best effort: the socket buffer of a new connection always has room for one line.
            let descriptor = socket.rawValue
            _ = reply.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            socket.close()
            return
        }
        let peer = PeerInfo.of(socket: socket) ?? PeerInfo(pid: 0, uid: UInt32.max, gid: UInt32.max)
        let connection = ClientConnection(
            socket: socket, peer: peer, number: nextConnectionNumber, server: self, queue: queue, limits: limits
        )
        nextConnectionNumber += 1
        connections[connection.number] = connection
        count {
            $0.connectionsAccepted += 1
            $0.connectionsCurrent += 1
        }
        connection.start()
    }

    private func pauseAccepting() {
        guard let acceptSource, !acceptSuspended else { return }
        count { $0.acceptPauses += 1 }
        acceptSuspended = true
        acceptSource.suspend()
        queue.asyncAfter(deadline: .now() + 0.1) { [self] in
            guard acceptSuspended, case .running = state, let acceptSource = self.acceptSource else { return }
            acceptSuspended = false
            acceptSource.resume()
        }
    }

    private func closeOverdueConnections() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = DispatchTime.now().uptimeNanoseconds
        let stopping: Bool
        if case .draining = state { stopping = true } else { stopping = false }
        for connection in Array(connections.values) { connection.closeIfOverdue(now: now, stopping: stopping) }
    }

    func connectionClosed(_ connection: ClientConnection, wasSubscribed: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
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
        sweepTimer?.cancel()
        readiness?.stop()
        let completions = stopCompletions
        stopCompletions = []
        for completion in completions { completion() }
    }
}
