import Foundation
import LocalizationWire
import Synchronization

/// The state a ``LocalizationClient`` shares with its reader thread: the connection, the
/// requests awaiting replies, and the reconnect loop.
///
/// The reader thread holds this object, not the client, so a client nobody uses any more
/// is deinitialised, closes its core, and the thread ends within one time limit.
final class ClientCore: Sendable {
    typealias Completion = @Sendable (Result<WireReply, DaemonConnectionError>) -> Void

    /// A request awaiting its reply.
    private struct Pending {
        let completion: Completion
        /// When ``expireOverdue()`` fails it (uptime nanoseconds); `.max` for a caller that
        /// keeps its own time (the blocking `send` waits on a semaphore with a time limit).
        let deadline: UInt64
    }

    private struct State {
        var socket: FrameSocket?
        /// Bumped for every connection, so a late failure of an old one is told apart.
        var incarnation = 0
        var nextID: UInt32 = 1
        var pending: [UInt32: Pending] = [:]
        /// One timer for the time limits of every request with a deadline, instead of one
        /// timer per request (which cost a third of the pipelined throughput). It fires at
        /// the earliest deadline; requests answered before then are simply gone from `pending`.
        var expiryTimer: (any DispatchSourceTimer)?
        /// When `expiryTimer` fires next (uptime nanoseconds), nil while it is idle.
        var expiryAt: UInt64?
        /// Set when a request timed out: the reader drops the connection at its next wake.
        var broken = false
        var closed = false
    }

    let socketPath: String
    let timeout: Double
    let subscribe: Bool
    let reconnectDelay: ClosedRange<Double>
    let onEvent: @Sendable (LocalizationClient.Event) -> Void
    private let state = Mutex(State())
    /// Serialises writers so frames never interleave; never held while waiting for a reply.
    private let writeLock = Mutex(())
    private let connected = Atomic<Bool>(false)
    /// Signalled by ``close()`` to cut a reconnect wait short.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled once after the first connection attempt.
    private let firstAttempt = DispatchSemaphore(value: 0)

    init(
        socketPath: String, timeout: Double, subscribe: Bool, reconnectDelay: ClosedRange<Double>,
        onEvent: @escaping @Sendable (LocalizationClient.Event) -> Void
    ) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.subscribe = subscribe
        self.reconnectDelay = max(0.001, reconnectDelay.lowerBound)...max(0.001, reconnectDelay.upperBound)
        self.onEvent = onEvent
        state.withLock { state in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
            timer.setEventHandler { [weak self] in self?.expireOverdue() }
            timer.resume()
            state.expiryTimer = timer
        }
    }

    var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// Starts the reader thread and waits for its first connection attempt.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "l10nd-client"
        thread.start()
        _ = firstAttempt.wait(timeout: .now() + timeout + 0.5)
    }

    /// Registers `completion` and writes the request; returns its id for ``expire(_:)``.
    /// With a `timeLimit` (seconds), the request fails with `.timeout` by itself once it
    /// passes; without one, the caller keeps time and calls ``expire(_:)``.
    func submit(_ operation: WireOperation, timeLimit: Double? = nil, completion: @escaping Completion)
        throws(DaemonConnectionError) -> UInt32
    {
        let deadline = timeLimit.map { DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, $0) * 1e9) } ?? .max
        let (socket, id) = try state.withLock {
            (state: inout State) throws(DaemonConnectionError) -> (FrameSocket, UInt32) in
            guard let socket = state.socket, !state.broken, !state.closed else {
                throw DaemonConnectionError(code: .unreachable, message: "no connection to l10nd at \(socketPath)")
            }
            let id = state.nextID
            state.nextID = state.nextID == .max ? 1 : state.nextID + 1
            state.pending[id] = Pending(completion: completion, deadline: deadline)
            if deadline < state.expiryAt ?? .max {
                state.expiryAt = deadline
                state.expiryTimer?.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
            }
            return (socket, id)
        }
        let written = writeLock.withLock { _ in
            Result { () throws(DaemonConnectionError) in
                try socket.send(WireRequest(id: .number(Int64(id)), operation: operation))
            }
        }
        if case .failure(let error) = written {
            markBroken(socket)
            if let completion = take(id) { completion(.failure(error)) }
            // The completion has run: the caller's wait ends at once with the error.
        }
        return id
    }

    /// Fails request `id` with `.timeout` if it is still waiting, and marks the connection
    /// broken: a daemon that misses a deadline is replaced, not waited for again.
    func expire(_ id: UInt32) {
        guard let completion = take(id) else { return }
        state.withLock { $0.broken = true }
        completion(.failure(timeoutError))
    }

    /// Fails every request whose deadline has passed (as ``expire(_:)`` does) and sets the
    /// timer for the earliest deadline left.
    private func expireOverdue() {
        let now = DispatchTime.now().uptimeNanoseconds
        let overdue = state.withLock { state -> [Completion] in
            var overdue: [Completion] = []
            var next = UInt64.max
            for (id, request) in state.pending where request.deadline != .max {
                if request.deadline <= now {
                    overdue.append(request.completion)
                    state.pending[id] = nil
                } else {
                    next = min(next, request.deadline)
                }
            }
            if !overdue.isEmpty { state.broken = true }
            state.expiryAt = next == .max ? nil : next
            if next != .max { state.expiryTimer?.schedule(deadline: DispatchTime(uptimeNanoseconds: next)) }
            return overdue
        }
        for completion in overdue { completion(.failure(timeoutError)) }
    }

    private var timeoutError: DaemonConnectionError {
        DaemonConnectionError(code: .timeout, message: "l10nd at \(socketPath) did not answer in time")
    }

    /// Stops the reader thread and fails every waiting request.
    func close() {
        let waiting = state.withLock { state -> [Completion] in
            state.closed = true
            state.socket = nil
            state.expiryTimer?.cancel()
            state.expiryTimer = nil
            defer { state.pending = [:] }
            return state.pending.values.map(\.completion)
        }
        connected.store(false, ordering: .releasing)
        wake.signal()
        let error = DaemonConnectionError(code: .unreachable, message: "the client was closed")
        for completion in waiting { completion(.failure(error)) }
    }

    private func take(_ id: UInt32) -> Completion? {
        state.withLock { $0.pending.removeValue(forKey: id)?.completion }
    }

    private func markBroken(_ socket: FrameSocket) {
        state.withLock { state in
            if state.socket === socket { state.broken = true }
        }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: The reader thread

    private func run() {
        var delay = reconnectDelay.lowerBound
        var signalledFirstAttempt = false
        while !isClosed {
            switch connect() {
            case .success(let (socket, hello)):
                delay = reconnectDelay.lowerBound
                install(socket)
                onEvent(.connected(hello: hello))
                if !signalledFirstAttempt { signalledFirstAttempt = true; firstAttempt.signal() }
                let error = read(socket)
                if uninstall(socket) { onEvent(.disconnected(error)) }
            case .failure:
                if !signalledFirstAttempt { signalledFirstAttempt = true; firstAttempt.signal() }
                _ = wake.wait(timeout: .now() + delay)
                delay = min(delay * 2, reconnectDelay.upperBound)
            }
        }
    }

    /// Opens a socket, checks `hello` and subscribes when asked.
    private func connect() -> Result<(FrameSocket, [String: WireValue]), DaemonConnectionError> {
        Result { () throws(DaemonConnectionError) -> (FrameSocket, [String: WireValue]) in
            let socket = try FrameSocket(path: socketPath, timeout: timeout)
            guard case .fields(let hello) = try socket.roundTrip(.hello, id: 0) else {
                throw DaemonConnectionError(
                    code: .protocolError, message: "l10nd at \(socketPath) did not answer hello")
            }
            let major = hello["protocol"]?["major"]?.integerValue
            guard major == Int64(WireProtocolVersion.major) else {
                throw DaemonConnectionError(
                    code: .protocolError,
                    message:
                        "l10nd at \(socketPath) speaks protocol \(major.map(String.init) ?? "?"); this client speaks \(WireProtocolVersion.major)"
                )
            }
            if subscribe {
                guard case .fields = try socket.roundTrip(.subscribe, id: 0) else {
                    throw DaemonConnectionError(
                        code: .protocolError, message: "l10nd at \(socketPath) refused subscribe")
                }
            }
            return (socket, hello)
        }
    }

    private func install(_ socket: FrameSocket) {
        state.withLock { state in
            state.socket = socket
            state.incarnation += 1
            state.broken = false
        }
        connected.store(true, ordering: .releasing)
    }

    /// Removes `socket` and fails its waiting requests; false when it was already gone
    /// (closed by ``close()``).
    private func uninstall(_ socket: FrameSocket) -> Bool {
        let (waiting, wasCurrent) = state.withLock { state -> ([Completion], Bool) in
            let wasCurrent = state.socket === socket
            if wasCurrent { state.socket = nil }
            defer { state.pending = [:] }
            return (state.pending.values.map(\.completion), wasCurrent)
        }
        connected.store(false, ordering: .releasing)
        let error = DaemonConnectionError(code: .unreachable, message: "the connection to l10nd at \(socketPath) broke")
        for completion in waiting { completion(.failure(error)) }
        return wasCurrent && !isClosed
    }

    /// Reads replies and events until the connection fails, is marked broken, or the
    /// client closes; returns why it stopped.
    private func read(_ socket: FrameSocket) -> DaemonConnectionError {
        while true {
            let (broken, closed) = state.withLock { ($0.broken, $0.closed) }
            if closed { return DaemonConnectionError(code: .unreachable, message: "the client was closed") }
            if broken {
                return DaemonConnectionError(code: .timeout, message: "l10nd at \(socketPath) did not answer in time")
            }
            let message: WireServerMessage
            do { message = try socket.receive() } catch {
                if error.code == .timeout { continue }
                return error
            }
            switch message {
            case .reply(let id, let reply):
                guard case .number(let number)? = id, let key = UInt32(exactly: number), let completion = take(key)
                else { continue }
                completion(.success(reply))
            case .event(.changed(let generation, let changes)):
                onEvent(.changed(generation: generation, changes: changes))
            }
        }
    }
}
