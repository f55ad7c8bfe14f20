import Dispatch
import Glibc
import LocalizationSockets
import Synchronization

/// The one thread that runs every ``LocalizationClient`` connection of the process: it
/// connects and does the handshakes, reads every socket, keeps the time limits and the
/// reconnect delays, and drops and replaces connections. Callers write requests, or leave
/// the write to it (`send(_:) async`, whose callers are on Swift's cooperative pool).
///
/// It waits for input on all sockets at once (one ``ReadinessLoop``), so replies that
/// arrive together, on one connection or many, cost one wake-up. Waiting for input only,
/// it is also not woken when the daemon reads a request, as a thread blocked in `recv` is
/// (the kernel wakes a socket's sleepers when its send buffer drains). It wakes for time
/// only when some connection has a deadline (``ReconnectingConnection/advance(now:)``).
final class ConnectionLoop: Sendable {
    /// What only the loop thread touches: the connections it runs and the sockets it reads.
    /// `@unchecked Sendable` because it is confined to that thread: ``run(_:)``,
    /// ``watch(_:for:)`` and ``forget(_:)`` are its only users, the last two asserting it.
    private final class Registry: @unchecked Sendable {
        var connections: [ObjectIdentifier: ReconnectingConnection] = [:]
        var readers: [UInt64: (reader: MessageReader, connection: ReconnectingConnection)] = [:]
        /// The sockets watched for room to write too: a write of the loop waits for it.
        var awaitingRoom: Set<UInt64> = []
        /// When the loop wakes next for time, as the last look at every connection found.
        var nextWake: UInt64?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        deinit { buffer.deallocate() }
    }

    private static let shared = ForkSafeMutex<ConnectionLoop?>(nil)

    private let readiness: ReadinessLoop
    /// The fork generation it was started in (``ProcessFork``): a child's inherited loop has
    /// no thread and the parent's descriptors, and is never used.
    private let forkGeneration = ProcessFork.generation
    /// The loop thread's `pthread_t`, set when it starts (0 before).
    private let thread = Atomic<UInt>(0)
    private let registry = Registry()
    /// Connections registered by other threads, taken in by the loop at its next wake-up.
    private let arrivals = ForkSafeMutex<[ReconnectingConnection]>([])

    /// The process's loop, started on first use; it runs for the life of the process (a child
    /// made by `fork()` starts its own: the parent's has no thread there).
    ///
    /// - Throws: `.unreachable` when it cannot be made (no descriptor free for its epoll
    ///   instance and wake-up pipe): nothing is left half made, and a later call tries again.
    static func started() throws(DaemonConnectionError) -> ConnectionLoop {
        try shared.withLock { (loop: inout ConnectionLoop?) throws(DaemonConnectionError) -> ConnectionLoop in
            if let current = loop {
                guard ProcessFork.isInherited(current.forkGeneration) else { return current }
                // The parent's: kept, never ended (ending it would touch the parent's epoll).
                _ = Unmanaged.passRetained(current)
                loop = nil
            }
            let readiness: ReadinessLoop
            do throws(SocketError) { readiness = try ReadinessLoop() } catch {
                let short = error.errno == EMFILE || error.errno == ENFILE
                throw DaemonConnectionError(
                    code: .unreachable,
                    message:
                        "\(short ? FrameSocket.noDescriptorFree + ": " : "")cannot wait for replies: \(error.message)")
            }
            let started = ConnectionLoop(readiness: readiness)
            readiness.start(name: "l10nd-replies", timed: started.run(_:woken:))
            loop = started
            return started
        }
    }

    private init(readiness: ReadinessLoop) {
        self.readiness = readiness
    }

    /// Runs `connection` from now on, until its state is `closed`: its first attempt begins at once.
    func register(_ connection: ReconnectingConnection) {
        arrivals.withLock { $0.append(connection) }
        readiness.wake()
    }

    /// Makes the loop look at every connection soon: a state or a deadline changed.
    func wake() {
        readiness.wake()
    }

    /// Stops the process if the caller is not the loop thread: what is confined to it
    /// (``MessageReader``s, the registry, a connection's moves between sockets) is used
    /// by nobody else.
    func assertOnLoopThread() {
        precondition(thread.load(ordering: .relaxed) == UInt(pthread_self()), "not on the l10nd-replies thread")
    }

    /// Reads `reader` from now on, for `connection`. Loop thread only.
    func watch(_ reader: MessageReader, for connection: ReconnectingConnection) throws(DaemonConnectionError) {
        assertOnLoopThread()
        do { try readiness.watch(reader.descriptor, token: reader.token) } catch {
            throw DaemonConnectionError(code: .unreachable, message: "cannot wait for replies: \(error.message)")
        }
        registry.readers[reader.token] = (reader, connection)
    }

    /// Stops reading the socket `token` names and lets its reader go. Loop thread only.
    func forget(_ token: UInt64) {
        assertOnLoopThread()
        guard let (reader, _) = registry.readers.removeValue(forKey: token) else { return }
        registry.awaitingRoom.remove(token)
        readiness.unwatch(reader.descriptor)
    }

    /// Reports the socket `token` names when it has room to write as well as input (`true`),
    /// or for input only again (`false`): room is reported for as long as there is some, so
    /// it is asked for only while a write waits. Loop thread only.
    func awaitRoom(on token: UInt64, _ awaiting: Bool) throws(DaemonConnectionError) {
        assertOnLoopThread()
        guard let (reader, _) = registry.readers[token], registry.awaitingRoom.contains(token) != awaiting else {
            return
        }
        do {
            try readiness.watch(reader.descriptor, token: token, input: true, output: awaiting, added: true)
        } catch {
            throw DaemonConnectionError(code: .unreachable, message: "cannot wait to write requests: \(error.message)")
        }
        if awaiting { registry.awaitingRoom.insert(token) } else { registry.awaitingRoom.remove(token) }
    }

    /// One wake-up: reads the sockets with input, then — when the time came, something
    /// woke the loop (a write left to it, among others), a read moved a connection's state or
    /// a socket a write waits on has room — moves every connection on;
    /// returns when to wake next.
    private func run(_ tokens: [UInt64], woken: Bool) -> UInt64? {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        var mustAdvance = woken
        if woken {
            for connection in arrivals.withLock({ arrivals in
                defer { arrivals = [] }; return arrivals
            }) {
                registry.connections[ObjectIdentifier(connection)] = connection
            }
        }
        for token in tokens {
            // A socket forgotten earlier in this wake-up may still be named.
            guard let (reader, connection) = registry.readers[token] else { continue }
            let outcome = reader.readAvailable(using: registry.buffer, on: self)
            if outcome.failure != nil {
                // The end of the stream stays readable: stop hearing about it at once.
                forget(token)
            }
            if connection.received(outcome, from: reader, loop: self) { mustAdvance = true }
            // Room to write, perhaps: the write waiting for it goes on below.
            if registry.awaitingRoom.contains(token), connection.roomToWrite() { mustAdvance = true }
        }
        guard mustAdvance else { return registry.nextWake }
        let now = DispatchTime.now().uptimeNanoseconds
        var next: UInt64?
        for (id, connection) in registry.connections {
            guard let wake = connection.advance(now: now, loop: self) else {
                registry.connections[id] = nil
                for (token, entry) in registry.readers where entry.connection === connection { forget(token) }
                continue
            }
            if wake != .max { next = min(next ?? .max, wake) }
        }
        registry.nextWake = next
        return next
    }
}
