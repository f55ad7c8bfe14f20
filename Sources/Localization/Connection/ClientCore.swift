import Foundation
import LocalizationWire
import Synchronization

/// The state a ``LocalizationClient`` shares with its connection thread and the process's
/// ``ReplyReader``: the connection, the requests awaiting replies, and the reconnect loop.
///
/// The connection thread connects, hands the socket to the reader and sleeps until the
/// connection must be dropped; then it reconnects. It holds this object, not the client, so
/// a client nobody uses any more is deinitialised, closes its core, and the thread ends.
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
        var pending: [UInt32: Pending] = [:]
        /// The requests of `socket` not yet written.
        var outbox = RequestOutbox()
        /// One timer for the time limits of every request with a deadline, instead of one
        /// timer per request (which cost a third of the pipelined throughput). It fires at
        /// the earliest deadline; requests answered before then are simply gone from `pending`.
        var expiryTimer: (any DispatchSourceTimer)?
        /// When `expiryTimer` fires next (uptime nanoseconds), nil while it is idle.
        var expiryAt: UInt64?
        /// Set when a request timed out or a write failed: the connection takes no more
        /// requests, and is dropped once those in flight have ended (each at its own time
        /// limit, or answered).
        var broken = false
        /// Why the reader saw `socket` end (closed by the daemon, unreadable data).
        var failure: DaemonConnectionError?
        var closed = false
    }

    let socketPath: String
    let timeout: Double
    let subscribe: Bool
    let reconnectDelay: ClosedRange<Double>
    let onEvent: @Sendable (LocalizationClient.Event) -> Void
    private let state = Mutex(State())
    /// The next request id, taken before the state is locked so the request is encoded
    /// outside the lock.
    private let nextID = Atomic<UInt32>(1)
    /// Held by the caller writing the outbox for as long as it writes; a caller that finds
    /// the outbox full waits on it, which bounds the outbox.
    private let writerGate = Mutex(())
    private let connected = Atomic<Bool>(false)
    /// Signalled by ``close()`` to cut a reconnect wait short.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled when the connection must be dropped (broken, failed or closed): wakes the
    /// connection thread, which otherwise sleeps while the ``ReplyReader`` reads.
    private let connectionMustEnd = DispatchSemaphore(value: 0)
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

    /// Starts the connection thread and waits for its first connection attempt.
    func start() {
        let thread = Thread { [self] in
            Thread.current.name = "l10nd-client"
            run()
        }
        thread.start()
        _ = firstAttempt.wait(timeout: .now() + timeout + 0.5)
    }

    /// Registers `completion` and writes the request; returns its id for ``expire(_:)``.
    /// With a `timeLimit` (seconds), the request fails with `.timeout` by itself once it
    /// passes; without one, the caller keeps time and calls ``expire(_:)``.
    ///
    /// Requests made while another is being written are queued and go out together with
    /// the next `send`; a failed write fails every request it carried. With `writeLater`
    /// (for a caller on Swift's cooperative pool) and other requests in flight, the write is
    /// a job of its own on the pool, queued behind the tasks that are ready to run: tasks
    /// resumed together by one read send their next requests together. A lone request is
    /// written at once: nothing would join it.
    func submit(
        _ operation: WireOperation, timeLimit: Double? = nil, writeLater: Bool = false,
        completion: @escaping Completion
    ) throws(DaemonConnectionError) -> UInt32 {
        let deadline = timeLimit.map { DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, $0) * 1e9) } ?? .max
        let id = takeID()
        let frame = BinaryFrameCodec.encode(WireRequest(id: .number(Int64(id)), operation: operation))
        let action = try state.withLock {
            (state: inout State) throws(DaemonConnectionError) -> WriteAction in
            guard state.socket != nil, !state.broken, !state.closed else {
                throw DaemonConnectionError(code: .unreachable, message: "no connection to l10nd at \(socketPath)")
            }
            state.pending[id] = Pending(completion: completion, deadline: deadline)
            if deadline < state.expiryAt ?? .max {
                state.expiryAt = deadline
                state.expiryTimer?.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
            }
            state.outbox.append(frame, id: id)
            if state.outbox.isWriting { return state.outbox.isFull ? .waitForWriter : .none }
            state.outbox.isWriting = true
            return writeLater && state.pending.count > 1 ? .writeLater : .writeNow
        }
        switch action {
        case .none: break
        case .writeNow: writeQueued()
        case .writeLater: Task { writeQueued() }
        case .waitForWriter: writerGate.withLock { _ in }
        }
        return id
    }

    /// What a caller does after queueing its request.
    private enum WriteAction {
        /// Another caller writes (or a job will): it takes this request along.
        case none
        /// Nobody writes: this caller writes the outbox.
        case writeNow
        /// Nobody writes: a job on the cooperative pool will, after the tasks ready now.
        case writeLater
        /// The outbox is full: the caller waits until the writer has emptied it.
        case waitForWriter
    }

    /// Request ids wrap around and skip 0, which the handshake uses.
    private func takeID() -> UInt32 {
        while true {
            let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
            if id != 0 { return id }
        }
    }

    /// Queued frames taken for one `send`, and the connection they were queued for.
    private struct OutgoingBatch {
        let socket: FrameSocket
        let frames: (bytes: [UInt8], ids: [UInt32])
    }

    /// Writes the outbox, then whatever was queued meanwhile, until it is empty; run by
    /// the one caller that found nobody writing. A failed write marks the connection broken
    /// and fails the requests it carried and those queued behind them with its error.
    private func writeQueued() {
        writerGate.withLock { _ in
            var sent: OutgoingBatch?
            var failure: DaemonConnectionError?
            while true {
                let (next, failed) = state.withLock { state -> (OutgoingBatch?, [Completion]) in
                    var failed: [Completion] = []
                    if let sent, failure != nil {
                        // A broken stream takes no more frames.
                        var ids = sent.frames.ids
                        if state.socket === sent.socket {
                            state.broken = true
                            ids += state.outbox.takeAll().ids
                        }
                        failed = ids.compactMap { state.pending.removeValue(forKey: $0)?.completion }
                    }
                    guard let socket = state.socket, !state.outbox.isEmpty else {
                        state.outbox.isWriting = false
                        return (nil, failed)
                    }
                    return (OutgoingBatch(socket: socket, frames: state.outbox.takeAll()), failed)
                }
                if let failure {
                    connectionMustEnd.signal()
                    for completion in failed { completion(.failure(failure)) }
                }
                guard let next else { return }
                failure = nil
                do throws(DaemonConnectionError) { try next.socket.send(frames: next.frames.bytes) } catch {
                    failure = error
                }
                sent = next
            }
        }
    }

    /// Fails request `id` with `.timeout` if it is still waiting, and marks the connection
    /// broken: a daemon that misses a deadline is replaced, not waited for again.
    func expire(_ id: UInt32) {
        guard let completion = take(id) else { return }
        state.withLock { $0.broken = true }
        connectionMustEnd.signal()
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
        guard !overdue.isEmpty else { return }
        connectionMustEnd.signal()
        for completion in overdue { completion(.failure(timeoutError)) }
    }

    private var timeoutError: DaemonConnectionError {
        DaemonConnectionError(code: .timeout, message: "l10nd at \(socketPath) did not answer in time")
    }

    /// Stops the connection thread and fails every waiting request.
    func close() {
        let waiting = state.withLock { state -> [Completion] in
            state.closed = true
            state.socket = nil
            state.expiryTimer?.cancel()
            state.expiryTimer = nil
            _ = state.outbox.takeAll()
            defer { state.pending = [:] }
            return state.pending.values.map(\.completion)
        }
        connected.store(false, ordering: .releasing)
        wake.signal()
        connectionMustEnd.signal()
        let error = DaemonConnectionError(code: .unreachable, message: "the client was closed")
        for completion in waiting { completion(.failure(error)) }
    }

    private func take(_ id: UInt32) -> Completion? {
        state.withLock { $0.pending.removeValue(forKey: id)?.completion }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: The connection thread

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
                let error = serve(socket)
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
            state.broken = false
            state.failure = nil
        }
        connected.store(true, ordering: .releasing)
    }

    /// Removes `socket` and fails its waiting requests; false when it was already gone
    /// (closed by ``close()``).
    private func uninstall(_ socket: FrameSocket) -> Bool {
        let (waiting, wasCurrent) = state.withLock { state -> ([Completion], Bool) in
            let wasCurrent = state.socket === socket
            if wasCurrent { state.socket = nil }
            // Frames queued for this connection must not reach the next one.
            _ = state.outbox.takeAll()
            defer { state.pending = [:] }
            return (state.pending.values.map(\.completion), wasCurrent)
        }
        connected.store(false, ordering: .releasing)
        let error = DaemonConnectionError(code: .unreachable, message: "the connection to l10nd at \(socketPath) broke")
        for completion in waiting { completion(.failure(error)) }
        return wasCurrent && !isClosed
    }

    /// Hands `socket` to the ``ReplyReader`` and sleeps until the connection fails, is
    /// marked broken, or the client closes; returns why it ended.
    private func serve(_ socket: FrameSocket) -> DaemonConnectionError {
        // The handshake's reads may have brought events after its replies.
        received(socket.bufferedMessages(), from: socket)
        let attachment: ReplyReader.Attachment
        do { attachment = try ReplyReader.started().attach(socket, to: self) } catch { return error }
        defer { attachment.detach() }
        while true {
            let ended = state.withLock { state -> DaemonConnectionError? in
                if state.closed { return DaemonConnectionError(code: .unreachable, message: "the client was closed") }
                if let failure = state.failure { return failure }
                return state.broken && state.pending.isEmpty ? timeoutError : nil
            }
            if let ended { return ended }
            connectionMustEnd.wait()
        }
    }

    /// What the reader read from `socket`: replies go to their callers, events to
    /// `onEvent`; a failure ends the connection.
    func received(_ outcome: FrameSocket.ReadOutcome, from socket: FrameSocket) {
        deliver(outcome.messages)
        guard let failure = outcome.failure else { return }
        let current = state.withLock { state in
            guard state.socket === socket, state.failure == nil else { return false }
            state.failure = failure
            return true
        }
        if current { connectionMustEnd.signal() }
    }

    /// Hands the replies of one read to their callers, taking the lock once for all of
    /// them; an event is passed on after the replies that came before it.
    private func deliver(_ messages: [WireServerMessage]) {
        var replies: [(UInt32, WireReply)] = []
        replies.reserveCapacity(messages.count)
        for message in messages {
            switch message {
            case .reply(let id, let reply):
                guard case .number(let number)? = id, let key = UInt32(exactly: number) else { continue }
                replies.append((key, reply))
            case .event(.changed(let generation, let changes)):
                complete(replies)
                replies.removeAll()
                onEvent(.changed(generation: generation, changes: changes))
            }
        }
        complete(replies)
    }

    private func complete(_ replies: [(UInt32, WireReply)]) {
        guard !replies.isEmpty else { return }
        let (answered, broken) = state.withLock { state -> ([(Completion, WireReply)], Bool) in
            let answered = replies.compactMap { id, reply in
                state.pending.removeValue(forKey: id).map { ($0.completion, reply) }
            }
            return (answered, state.broken)
        }
        // A broken connection is dropped once nothing is in flight: this may be the last.
        if broken { connectionMustEnd.signal() }
        for (completion, reply) in answered { completion(.success(reply)) }
    }
}
