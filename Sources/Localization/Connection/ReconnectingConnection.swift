import Dispatch
import LocalizationWire
import Synchronization

/// The connection of one ``LocalizationClient``: its ``ConnectionState``, the requests
/// awaiting replies and the frames not yet written, behind one lock.
///
/// Callers submit requests and write them through the state's ``RequestWriter``, or leave
/// the write to the loop. The process's ``ConnectionLoop`` does everything else, on its
/// thread: connecting and the handshake, reading replies and events
/// (``received(_:from:loop:)``), time limits, reconnecting and the writes left to it
/// (``advance(now:loop:)``). The loop holds this object, not the client, until
/// it is closed: a client nobody uses any more is deinitialised and closes it.
final class ReconnectingConnection: Sendable {
    typealias Completion = @Sendable (Result<WireReply, DaemonConnectionError>) -> Void

    /// A request awaiting its reply.
    private struct Pending {
        let completion: Completion
        /// When the loop fails it (uptime nanoseconds); `.max` for a caller that keeps its
        /// own time (the blocking `send` waits on a semaphore with a time limit).
        let deadline: UInt64
        /// Made in the background for lookups that wait for it only briefly (a `table`
        /// fetch, with a limit longer than a lookup's): a connection draining after another
        /// request's timeout does not wait for it, and it fails when the socket is dropped.
        let background: Bool
    }

    private struct Machine {
        var state = ConnectionState.waitingToReconnect(retryAt: 0)
        var pending: [UInt32: Pending] = [:]
        /// The requests of the live socket not yet written; replaced with the socket.
        var outbox = RequestOutbox()
        /// No pending deadline is earlier (uptime nanoseconds): the loop scans `pending`
        /// for overdue requests only once it has passed, not at every wake-up.
        var earliestDeadline = UInt64.max
        /// The latest the loop looks at this connection again, as it last planned: a
        /// request with an earlier deadline wakes it. 0 while it is about to look anyway.
        var plannedWake: UInt64 = 0
        /// The wait before the next attempt after a failed one: it doubles after each
        /// failure, up to the longest, and starts over once connected.
        var retryDelay: Double
        var firstAttemptOver = false

        /// Whether nothing a draining connection waits for is in flight: only background
        /// requests, which fail when it is dropped.
        var onlyBackgroundPending: Bool { pending.values.allSatisfy(\.background) }
    }

    /// What ``advance(now:loop:)`` does next.
    private enum Step {
        case wait(until: UInt64)
        case connect
        case abandonHandshake(token: UInt64)
        case write(RequestWriter)
        case dropDrained
        case forget
    }

    let socketPath: String
    let timeout: Double
    let subscribe: Bool
    let reconnectDelay: ClosedRange<Double>
    let onEvent: @Sendable (LocalizationClient.Event) -> Void
    private let machine: ForkSafeMutex<Machine>
    /// The next request id, taken before the lock so the request is encoded outside it.
    private let nextID = Atomic<UInt32>(1)
    /// Whether the state is `connected` or `draining`, read without the lock.
    private let connected = Atomic<Bool>(false)
    /// Why the daemon refused the last attempt, in its own words (an `unavailable` error
    /// sent before it closed: at its connection limit); `nil` once a connection is up.
    private let refusal = ForkSafeMutex<String?>(nil)
    /// Signalled once, when the first connection attempt is over.
    private let firstAttempt = DispatchSemaphore(value: 0)
    /// The process's loop once it runs this connection; `nil` while it cannot be made (no
    /// descriptor free): ``start()`` tries again, at most once per ``loopRetryInterval``.
    private let started = ForkSafeMutex<(loop: ConnectionLoop?, lastTry: UInt64)>((nil, 0))
    /// The fork generation this connection was made in (``ProcessFork``): in a child made by
    /// `fork()` it is the parent's, and is never read, written or woken.
    private let forkGeneration = ProcessFork.generation

    /// How often a connection whose loop could not be made tries again, in seconds.
    static let loopRetryInterval = 1.0

    init(
        socketPath: String, timeout: Double, subscribe: Bool, reconnectDelay: ClosedRange<Double>,
        onEvent: @escaping @Sendable (LocalizationClient.Event) -> Void
    ) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.subscribe = subscribe
        self.reconnectDelay = max(0.001, reconnectDelay.lowerBound)...max(0.001, reconnectDelay.upperBound)
        self.onEvent = onEvent
        machine = ForkSafeMutex(Machine(retryDelay: self.reconnectDelay.lowerBound))
    }

    /// The loop running this connection, if it runs.
    private var loop: ConnectionLoop? { started.withLock { $0.loop } }

    /// Whether this connection was inherited from a parent across `fork()`: then it is the
    /// parent's, and nothing may be sent or read on it.
    var isInherited: Bool { ProcessFork.isInherited(forkGeneration) }

    var isConnected: Bool { connected.load(ordering: .acquiring) && !isInherited }

    /// Why the daemon refused the last connection attempt, as it said; `nil` when it did not
    /// say, or a connection is up.
    var lastRefusal: String? { refusal.withLock { $0 } }

    /// Hands the connection to the loop and waits for its first connection attempt. When the
    /// loop cannot be made (no descriptor free: it needs three), the reason is kept as
    /// ``lastRefusal`` and nothing connects until a later call (``startIfStopped()``) makes it.
    func start() {
        guard startIfStopped() else { return }
        _ = firstAttempt.wait(timeout: .now() + timeout + 0.5)
    }

    /// Hands the connection to the loop unless it runs already or was tried less than
    /// ``loopRetryInterval`` ago; returns whether it was handed over now.
    @discardableResult
    func startIfStopped() -> Bool {
        let now = now()
        let loop = started.withLock { started -> ConnectionLoop?? in
            guard started.loop == nil, !isInherited,
                started.lastTry == 0 || now &- started.lastTry >= UInt64(Self.loopRetryInterval * 1e9)
            else { return .none }
            started.lastTry = now
            do throws(DaemonConnectionError) {
                started.loop = try ConnectionLoop.started()
                return started.loop
            } catch {
                refusal.withLock { $0 = error.message }
                return .some(nil)
            }
        }
        guard case .some(let loop?) = loop else { return false }
        loop.register(self)
        return true
    }

    // MARK: Callers

    /// Registers `completion` and writes the request; returns its id for ``expire(_:)``.
    /// With a `timeLimit` (seconds), the request fails with `.timeout` by itself once it
    /// passes; without one, the caller keeps time and calls ``expire(_:)``.
    ///
    /// Requests made while another is being written are queued and go out together with
    /// the next `send`; a failed write fails every request it carried. With `leaveToLoop`
    /// (for a caller on Swift's cooperative pool) and other requests in flight, the
    /// ``ConnectionLoop`` thread writes the queue when it next wakes (woken now), so tasks
    /// resumed together by one read send their next requests together. Not a job on the
    /// pool: the pool has one thread per core, and a program's blocking code may hold them
    /// all for any time while the daemon's answers would be ready at once. A lone request is
    /// written at once: nothing would join it.
    func submit(
        _ operation: WireOperation, timeLimit: Double? = nil, leaveToLoop: Bool = false, background: Bool = false,
        completion: @escaping Completion
    ) throws(DaemonConnectionError) -> UInt32 {
        // The parent's connection, in a child made by `fork()`: not even its lock is taken.
        guard !isInherited else {
            throw DaemonConnectionError(
                code: .unreachable, message: "the connection to l10nd at \(socketPath) belongs to the parent process")
        }
        let deadline = timeLimit.map { DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, $0) * 1e9) } ?? .max
        let id = takeID()
        let frame = BinaryFrameCodec.encode(WireRequest(id: .number(Int64(id)), operation: operation))
        // Connected means the loop runs (it made the connection); looked up outside the lock.
        let loop = leaveToLoop ? self.loop : nil
        let (action, writer, wakeLoop) = try machine.withLock {
            (machine: inout Machine) throws(DaemonConnectionError) -> (WriteAction, RequestWriter, Bool) in
            guard case .connected(let writer) = machine.state else {
                throw DaemonConnectionError(code: .unreachable, message: "no connection to l10nd at \(socketPath)")
            }
            machine.pending[id] = Pending(completion: completion, deadline: deadline, background: background)
            machine.earliestDeadline = min(machine.earliestDeadline, deadline)
            let wakeLoop = deadline < machine.plannedWake
            if wakeLoop { machine.plannedWake = deadline }
            machine.outbox.append(frame, id: id)
            if machine.outbox.isWriting { return (machine.outbox.isFull ? .waitForWriter : .none, writer, wakeLoop) }
            machine.outbox.isWriting = true
            if loop != nil && machine.pending.count > 1 {
                machine.outbox.loopWrites = true
                return (.leaveToLoop, writer, true)
            }
            // Taken under this lock, not the writer's first.
            return (.writeNow(machine.outbox.takeAll()), writer, wakeLoop)
        }
        if wakeLoop { (loop ?? self.loop)?.wake() }
        switch action {
        case .none, .leaveToLoop: break
        case .writeNow(let frames): writeQueued(through: writer, first: frames)
        // A write the loop holds is not waited for: each of its callers has one request queued.
        case .waitForWriter: writer.withTurn {}
        }
        return id
    }

    /// What a caller does after queueing its request.
    private enum WriteAction {
        /// Another caller writes (or the loop will): it takes this request along.
        case none
        /// Nobody writes: this caller writes the outbox, taken here, and what follows.
        case writeNow(RequestOutbox.Frames)
        /// Nobody writes: the loop will, woken now.
        case leaveToLoop
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

    /// Writes `first`, then whatever was queued meanwhile, until the outbox is empty or
    /// `writer`'s socket was dropped; run by the one caller that found nobody writing, in
    /// its turn, waiting for room in the socket as long as its time limit allows.
    private func writeQueued(through writer: RequestWriter, first: RequestOutbox.Frames) {
        writer.withTurn {
            var frames = first
            while true {
                var failure: DaemonConnectionError?
                do throws(DaemonConnectionError) { try writer.send(frames: frames.bytes) } catch { failure = error }
                guard let next = nextFrames(for: writer, after: failure, sent: frames.ids) else { return }
                frames = next
            }
        }
    }

    /// Writes the outbox for the loop, which holds its write (``RequestOutbox/loopWrites``),
    /// until it is empty or `writer`'s socket was dropped — without ever waiting: when the
    /// socket is full, the rest is kept (``RequestOutbox/unsent``) and the loop watches for
    /// room (``ConnectionLoop/awaitRoom(on:_:)``). A loop blocked in `send` would read no
    /// replies, and a daemon that cannot send its replies reads no more requests.
    private func writeForLoop(through writer: RequestWriter, loop: ConnectionLoop) {
        // What the socket did not take last time goes first, from where it stopped.
        var next = machine.withLock { machine -> (frames: RequestOutbox.Frames, written: Int)? in
            guard machine.state.liveWriter === writer else { return nil }
            defer { machine.outbox.unsent = nil }
            return machine.outbox.unsent
        }
        if next == nil { next = nextFrames(for: writer, after: nil, sent: []).map { ($0, 0) } }
        while let (frames, start) = next {
            var failure: DaemonConnectionError?
            var written = start
            do throws(DaemonConnectionError) {
                written += try writer.sendAvailable(frames: frames.bytes[start...])
            } catch {
                failure = error
            }
            if failure == nil && written < frames.bytes.count {
                let waits = machine.withLock { machine in
                    guard machine.state.liveWriter === writer else { return false }
                    machine.outbox.unsent = (frames, written)
                    machine.outbox.awaitingRoom = true
                    return true
                }
                guard waits else { return }
                do throws(DaemonConnectionError) { try loop.awaitRoom(on: writer.token, true) } catch {
                    drop(because: error, loop: loop)
                }
                return
            }
            next = nextFrames(for: writer, after: failure, sent: frames.ids).map { ($0, 0) }
        }
        // Nothing waits to be written: the socket's room is of no interest any more.
        do throws(DaemonConnectionError) { try loop.awaitRoom(on: writer.token, false) } catch {
            drop(because: error, loop: loop)
        }
    }

    /// What the writer through `writer` sends next: everything queued, or `nil` — giving up
    /// the write — once the outbox is empty or `writer`'s socket was dropped. After a write
    /// that failed with `failure`, the connection drains and the requests it carried
    /// (`sent`) and those queued behind them fail with its error.
    private func nextFrames(
        for writer: RequestWriter, after failure: DaemonConnectionError?, sent: [UInt32]
    ) -> RequestOutbox.Frames? {
        let (taken, failed) = machine.withLock { machine -> (RequestOutbox.Frames?, [Completion]) in
            // A dropped socket's outbox went with it.
            guard machine.state.liveWriter === writer else { return (nil, []) }
            var failed: [Completion] = []
            if failure != nil {
                // A broken stream takes no more frames.
                if case .connected = machine.state { machine.state = .draining(writer) }
                failed = (sent + machine.outbox.takeAll().ids).compactMap {
                    machine.pending.removeValue(forKey: $0)?.completion
                }
            }
            guard !machine.outbox.isEmpty else {
                machine.outbox.isWriting = false
                machine.outbox.loopWrites = false
                return (nil, failed)
            }
            return (machine.outbox.takeAll(), failed)
        }
        if let failure {
            loop?.wake()  // to drop the connection once nothing is in flight
            for completion in failed { completion(.failure(failure)) }
        }
        return taken
    }

    /// Notes that the socket has room, or may have (the loop heard it is ready): returns
    /// whether a write of the loop waited for it, and must go on (``advance(now:loop:)``).
    func roomToWrite() -> Bool {
        machine.withLock { machine in
            guard machine.outbox.awaitingRoom else { return false }
            machine.outbox.awaitingRoom = false
            return true
        }
    }

    /// Fails request `id` with `.timeout` if it is still waiting, and drains the connection:
    /// a daemon that misses a deadline is replaced, not waited for again.
    func expire(_ id: UInt32) {
        guard !isInherited else { return }
        let completion = machine.withLock { machine -> Completion? in
            guard let completion = machine.pending.removeValue(forKey: id)?.completion else { return nil }
            if case .connected(let writer) = machine.state { machine.state = .draining(writer) }
            return completion
        }
        guard let completion else { return }
        loop?.wake()
        completion(.failure(timeoutError))
    }

    /// Stops connecting and fails every waiting request. In a child made by `fork()`, does
    /// nothing: the connection is the parent's.
    func close() {
        guard !isInherited else { return }
        let waiting = machine.withLock { machine -> [Completion]? in
            guard !machine.state.isClosed else { return nil }
            machine.state = .closed
            machine.outbox = RequestOutbox()
            defer { machine.pending = [:] }
            return machine.pending.values.map(\.completion)
        }
        guard let waiting else { return }
        connected.store(false, ordering: .releasing)
        loop?.wake()
        let error = DaemonConnectionError(code: .unreachable, message: "the client was closed")
        for completion in waiting { completion(.failure(error)) }
    }

    private var timeoutError: DaemonConnectionError {
        DaemonConnectionError(code: .timeout, message: "l10nd at \(socketPath) did not answer in time")
    }

    // MARK: The loop thread

    /// Fails overdue requests, connects, abandons a late handshake, drops a drained socket
    /// or writes the requests left to the loop, as the time and the state require; returns when the loop must look again
    /// at the latest (`.max`: only when woken), or `nil` once closed, to be forgotten.
    func advance(now: UInt64, loop: ConnectionLoop) -> UInt64? {
        loop.assertOnLoopThread()
        while true {
            let (step, overdue) = machine.withLock { machine -> (Step, [Completion]) in
                let overdue = Self.takeOverdue(from: &machine, now: now)
                let step: Step =
                    switch machine.state {
                    case .closed: .forget
                    case .waitingToReconnect(let retryAt) where retryAt <= now: .connect
                    case .waitingToReconnect(let retryAt): .wait(until: min(retryAt, machine.earliestDeadline))
                    case .handshaking(let writer, _, let deadline) where deadline <= now:
                        .abandonHandshake(token: writer.token)
                    case .handshaking(_, _, let deadline): .wait(until: min(deadline, machine.earliestDeadline))
                    case .draining where machine.onlyBackgroundPending: .dropDrained
                    case .connected(let writer) where machine.outbox.loopWrites && !machine.outbox.awaitingRoom,
                        .draining(let writer) where machine.outbox.loopWrites && !machine.outbox.awaitingRoom:
                        .write(writer)
                    case .connected, .draining: .wait(until: machine.earliestDeadline)
                    }
                if case .wait(let until) = step { machine.plannedWake = until }
                return (step, overdue)
            }
            for completion in overdue { completion(.failure(timeoutError)) }
            switch step {
            case .wait(let until): return until
            case .forget: return nil
            case .connect: attemptConnection(loop: loop)
            case .abandonHandshake(let token): attemptFailed(token: token, loop: loop)
            case .dropDrained: drop(because: timeoutError, loop: loop)
            case .write(let writer): writeForLoop(through: writer, loop: loop)
            }
        }
    }

    /// Takes the requests whose deadline has passed, draining the connection if there are
    /// any, and notes the earliest deadline left.
    private static func takeOverdue(from machine: inout Machine, now: UInt64) -> [Completion] {
        guard machine.earliestDeadline <= now else { return [] }
        var overdue: [Completion] = []
        var earliest = UInt64.max
        for (id, request) in machine.pending where request.deadline != .max {
            if request.deadline <= now {
                overdue.append(request.completion)
                machine.pending[id] = nil
            } else {
                earliest = min(earliest, request.deadline)
            }
        }
        machine.earliestDeadline = earliest
        if !overdue.isEmpty, case .connected(let writer) = machine.state { machine.state = .draining(writer) }
        return overdue
    }

    /// Opens a socket and sends `hello`; its reply arrives through ``received(_:from:loop:)``.
    private func attemptConnection(loop: ConnectionLoop) {
        let socket: FrameSocket
        do { socket = try FrameSocket(path: socketPath, timeout: timeout) } catch {
            // Said, as the daemon's refusals are: the process is short of descriptors.
            if error.message.hasPrefix(FrameSocket.noDescriptorFree) { refusal.withLock { $0 = error.message } }
            return attemptFailed(token: nil, loop: loop)
        }
        do throws(DaemonConnectionError) {
            try socket.writer.send(WireRequest(id: .number(0), operation: .hello))
        } catch {
            // Refused (at the connection limit) before `hello` went out: the reason the daemon
            // sent before it closed is there to read at once.
            if let reason = socket.refusal(after: error) { refusal.withLock { $0 = reason.message } }
            return attemptFailed(token: nil, loop: loop)
        }
        do { try loop.watch(socket.reader, for: self) } catch { return attemptFailed(token: nil, loop: loop) }
        let handshaking = machine.withLock { machine in
            guard case .waitingToReconnect = machine.state else { return false }
            machine.state = .handshaking(socket.writer, step: .hello, deadline: deadline(after: now()))
            return true
        }
        if !handshaking { loop.forget(socket.reader.token) }
    }

    private func deadline(after now: UInt64) -> UInt64 {
        now &+ UInt64(max(0, timeout) * 1e9)
    }

    /// Ends a failed attempt: the next waits for the retry delay, which doubles.
    private func attemptFailed(token: UInt64?, loop: ConnectionLoop) {
        if let token { loop.forget(token) }
        let first = machine.withLock { machine in
            if !machine.state.isClosed {
                machine.state = .waitingToReconnect(retryAt: now() &+ UInt64(machine.retryDelay * 1e9))
                machine.retryDelay = min(machine.retryDelay * 2, reconnectDelay.upperBound)
            }
            defer { machine.firstAttemptOver = true }
            return !machine.firstAttemptOver
        }
        if first { firstAttempt.signal() }
    }

    /// What the loop read from `reader`'s socket: the handshake's replies move it on;
    /// then replies go to their callers, events to `onEvent`; a failure ends the socket.
    /// Returns whether the state moved, so ``advance(now:loop:)`` must run.
    func received(_ outcome: MessageReader.ReadOutcome, from reader: MessageReader, loop: ConnectionLoop) -> Bool {
        loop.assertOnLoopThread()
        var messages = outcome.messages[...]
        var moved = false
        // While connected, the socket the loop reads is the live one: only a new socket
        // can be handshaking, and the lock is not needed to know it is not.
        if !connected.load(ordering: .acquiring),
            let step = machine.withLock({ machine -> ConnectionState.HandshakeStep? in
                guard case .handshaking(let writer, let step, _) = machine.state, writer.token == reader.token else {
                    return nil
                }
                return step
            })
        {
            moved = true
            // Nothing is delivered before the handshake's end, nor after its failure.
            messages = continueHandshake(at: step, with: messages, token: reader.token, loop: loop) ?? []
        }
        if deliver(messages, loop: loop) { moved = true }
        guard let failure = outcome.failure else { return moved }
        let (isLive, isHandshaking) = machine.withLock { machine in
            switch machine.state {
            case .handshaking(let writer, _, _): (false, writer.token == reader.token)
            default: (machine.state.liveWriter?.token == reader.token, false)
            }
        }
        if isLive { drop(because: failure, loop: loop) }
        if isHandshaking { attemptFailed(token: reader.token, loop: loop) }
        return true
    }

    /// Takes the handshake's replies from the front of `messages`; returns the messages
    /// after the one that completed it, or `nil` while it goes on or once it failed.
    private func continueHandshake(
        at first: ConnectionState.HandshakeStep, with messages: ArraySlice<WireServerMessage>, token: UInt64,
        loop: ConnectionLoop
    ) -> ArraySlice<WireServerMessage>? {
        var step = first
        var rest = messages
        while let message = rest.popFirst() {
            // Events before the subscription was answered are not this client's.
            guard case .reply(_, let reply) = message else { continue }
            switch step {
            case .hello:
                guard case .fields(let hello) = reply else {
                    if case .error(let error) = reply { refusal.withLock { $0 = error.message } }
                    attemptFailed(token: token, loop: loop)
                    return nil
                }
                guard hello["protocol"]?["major"]?.integerValue == Int64(WireProtocolVersion.major) else {
                    attemptFailed(token: token, loop: loop)
                    return nil
                }
                guard subscribe else {
                    return becomeConnected(token: token, hello: hello) ? rest : nil
                }
                let writer = machine.withLock { machine -> RequestWriter? in
                    guard case .handshaking(let writer, _, _) = machine.state, writer.token == token else { return nil }
                    machine.state = .handshaking(
                        writer, step: .subscribe(hello: hello), deadline: deadline(after: now()))
                    return writer
                }
                guard let writer else { return nil }
                do { try writer.send(WireRequest(id: .number(0), operation: .subscribe)) } catch {
                    attemptFailed(token: token, loop: loop)
                    return nil
                }
                step = .subscribe(hello: hello)
            case .subscribe(let hello):
                guard case .fields = reply else {
                    attemptFailed(token: token, loop: loop)
                    return nil
                }
                return becomeConnected(token: token, hello: hello) ? rest : nil
            }
        }
        return nil
    }

    /// Ends the handshake of socket `token`: requests may go out; `onEvent` hears of it.
    private func becomeConnected(token: UInt64, hello: [String: WireValue]) -> Bool {
        let first = machine.withLock { machine -> Bool? in
            guard case .handshaking(let writer, _, _) = machine.state, writer.token == token else { return nil }
            machine.state = .connected(writer)
            machine.outbox = RequestOutbox()
            machine.retryDelay = reconnectDelay.lowerBound
            defer { machine.firstAttemptOver = true }
            return !machine.firstAttemptOver
        }
        guard let first else { return false }
        refusal.withLock { $0 = nil }
        connected.store(true, ordering: .releasing)
        onEvent(.connected(hello: hello))
        if first { firstAttempt.signal() }
        return true
    }

    /// Drops the live socket: its waiting requests fail, `onEvent` hears why, and the next
    /// attempt begins at once.
    private func drop(because reason: DaemonConnectionError, loop: ConnectionLoop) {
        let dropped = machine.withLock { machine -> (token: UInt64, waiting: [Completion])? in
            guard let writer = machine.state.liveWriter else { return nil }
            machine.state = .waitingToReconnect(retryAt: 0)
            // Frames queued for this socket must not reach the next one.
            machine.outbox = RequestOutbox()
            machine.earliestDeadline = .max
            defer { machine.pending = [:] }
            return (writer.token, machine.pending.values.map(\.completion))
        }
        guard let dropped else { return }
        loop.forget(dropped.token)
        connected.store(false, ordering: .releasing)
        let error = DaemonConnectionError(code: .unreachable, message: "the connection to l10nd at \(socketPath) broke")
        for completion in dropped.waiting { completion(.failure(error)) }
        onEvent(.disconnected(reason))
    }

    /// Hands the replies of one read to their callers, taking the lock once for all of
    /// them; an event is passed on after the replies that came before it. Returns whether
    /// the connection was dropped, drained.
    private func deliver(_ messages: ArraySlice<WireServerMessage>, loop: ConnectionLoop) -> Bool {
        var replies: [(UInt32, WireReply)] = []
        var dropped = false
        replies.reserveCapacity(messages.count)
        for message in messages {
            switch message {
            case .reply(let id, let reply):
                guard case .number(let number)? = id, let key = UInt32(exactly: number) else { continue }
                replies.append((key, reply))
            case .event(.changed(let generation, let changes)):
                dropped = complete(replies, loop: loop) || dropped
                replies.removeAll()
                onEvent(.changed(generation: generation, changes: changes))
            case .event(.fileErrors):
                // A broken save changes nothing served.
                continue
            }
        }
        return complete(replies, loop: loop) || dropped
    }

    /// Hands `replies` to their callers; returns whether that drained the connection,
    /// which was then dropped.
    private func complete(_ replies: [(UInt32, WireReply)], loop: ConnectionLoop) -> Bool {
        guard !replies.isEmpty else { return false }
        let (answered, drained) = machine.withLock { machine -> ([(Completion, WireReply)], Bool) in
            let answered = replies.compactMap { id, reply in
                machine.pending.removeValue(forKey: id).map { ($0.completion, reply) }
            }
            guard case .draining = machine.state else { return (answered, false) }
            return (answered, machine.onlyBackgroundPending)
        }
        for (completion, reply) in answered { completion(.success(reply)) }
        // A draining connection is dropped once nothing is in flight: this was the last.
        if drained { drop(because: timeoutError, loop: loop) }
        return drained
    }

    private func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
