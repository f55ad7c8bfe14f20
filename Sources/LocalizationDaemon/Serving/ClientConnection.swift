import Dispatch
import Glibc
import LocalizationCore
import LocalizationSockets
import LocalizationWire

/// One accepted client: reads and frames its bytes, hands requests to the handler, and
/// writes the replies back in request order.
///
/// Every method runs on the server's loop thread (its entry points assert it) and all mutable
/// state is confined to it, which is what makes the `@unchecked Sendable` sound: the reply
/// closures given to the handler may be called on any thread, and they are posted to the
/// loop before touching anything.
///
/// The loop watches the socket for input while requests are taken, and for room to write
/// only while output waits (``updateInterest()``); with neither, the socket is not in the
/// loop's set at all.
///
/// Ordering: each request takes a slot in ``slots`` when it arrives; a reply fills its slot;
/// the filled slots at the head are moved to ``output`` and written. A slow `reload` thus
/// holds back the lookups pipelined after it, as the protocol promises.
///
/// Flow control: a request is taken from the framer, and the socket read, only while the
/// connection's unsent replies (in ``output`` and held in ``slots``) are under
/// ``ServerLimits/maxOutputBufferBytes``. A client that reads is never cut off, however large
/// or many its replies; one that stops reading stops being read, and costs at most the limit
/// plus the one reply that crossed it. Only change events, which cannot wait, cut off a
/// subscriber that leaves more than the limit of them unread.
final class ClientConnection: @unchecked Sendable {
    /// A place in the reply order.
    private struct Slot {
        var bytes: [UInt8]?
        let id: WireRequestID?
        let encoding: WireEncoding
        var isEvent = false
        /// A `map` reply's slabs, whose descriptors go with the reply's first byte.
        var attachment: [SegmentSlab] = []
    }

    private enum State {
        /// Reading requests and writing replies.
        case open
        /// No more reading; closes once every slot is answered and written.
        case draining
        case closed
    }

    let number: UInt64
    let peer: PeerInfo
    /// The socket's number, for system calls until ``close()``.
    private let descriptor: Int32
    /// The socket, closed by ``close()``.
    private var socket: FileDescriptor?
    private let limits: ServerLimits
    private unowned let server: SocketServer

    private var state = State.open
    private var framer: MessageFramer
    private var slots: [Slot] = []
    private var slotsHead = 0
    /// The sequence number of `slots[slotsHead]`.
    private var firstSequence: UInt64 = 0
    /// Bytes of replies that are filled but wait behind an unanswered request.
    private var heldBytes = 0
    private var output: [UInt8] = []
    private var outputStart = 0
    private(set) var subscription: WireEncoding?
    /// When a request last arrived whole, the socket last took a byte of output, or a sweep
    /// found the peer had read some of what waits in the socket (uptime nanoseconds). Bytes
    /// read do not count by themselves: a client sending blank lines, or
    /// a byte now and then, is not kept from idling out by them.
    private(set) var lastActivity: UInt64
    /// What the peer had left unread in the socket at the last sweep (``SocketSendQueue``),
    /// while output waited for it: less at the next sweep is reading, hence activity.
    private var unreadAtLastSweep = 0
    /// When the first byte of the request still incomplete in the framer was read; nil when
    /// none is, or while the server is not reading (then the wait is ours, not the client's).
    private var partialRequestSince: UInt64?
    /// Bytes ever moved to `output`, and ever written from it: event ends are kept in the
    /// first's terms to learn from the second when an event has gone out.
    private var queuedTotal: UInt64 = 0
    private var writtenTotal: UInt64 = 0
    /// Slabs to send, each reply's with the byte at `start` (in `queuedTotal` terms): the first
    /// byte of its `map` reply. Kept in output order, so descriptors pair with replies in order.
    private var unsentAttachments: [(start: UInt64, slabs: [SegmentSlab])] = []
    /// Slabs sent but whose reply's first byte the peer may not have read yet: each stays
    /// pinned (in the socket, beyond the daemon's own segments) until then.
    private var sentAttachments: [(start: UInt64, slabs: [SegmentSlab])] = []
    /// Where each event not yet fully written ends in `queuedTotal` terms, and its size.
    private var unsentEvents: [(end: UInt64, size: Int)] = []
    private var unsentEventsHead = 0
    /// Bytes of change events not yet written, held or in `output`.
    private var eventBytesUnsent = 0
    /// Whether the peer has finished sending (`read` returned 0).
    private var inputEnded = false
    /// The sequence number of a `table` request still with the handler: no other request is
    /// taken until it is answered, since its reply's size is unknown until then.
    private var tableSequence: UInt64?

    /// Whether requests are not being taken now (flow control, draining): then the loop
    /// does not watch for input.
    private var readSuspended = true
    /// What the loop watches the socket for now (``updateInterest()``); neither: not in its set.
    private var watchingInput = false
    private var watchingOutput = false
    /// Set while ``processMessages()`` runs: replies collect in `output` until it ends.
    private var coalescingWrites = false

    init(
        socket: consuming FileDescriptor, peer: PeerInfo, number: UInt64, server: SocketServer, limits: ServerLimits
    ) {
        self.descriptor = socket.rawValue
        self.socket = consume socket
        self.peer = peer
        self.number = number
        self.server = server
        self.limits = limits
        self.framer = MessageFramer(maxMessageBytes: limits.maxMessageBytes)
        self.lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    /// Starts reading. Called once, on the loop.
    func start() {
        server.assertOnLoop()
        resumeReading()
    }

    /// The loop found the socket ready: room to write what waits, input, or a hang-up.
    func ready() {
        server.assertOnLoop()
        if watchingOutput { writeOutput() }
        if watchingInput { readAvailable() }
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Bytes of replies and events not yet written: in `output` and held in `slots`.
    private var unsentBytes: Int { output.count - outputStart + heldBytes }

    /// Whether another request may be taken: few enough wait for the handler, and the
    /// replies already owed leave room under the output limit.
    private var canDispatch: Bool {
        slots.count - slotsHead < limits.maxPendingRequests && unsentBytes < limits.maxOutputBufferBytes
            && tableSequence == nil
    }

    /// Closes this connection if it broke a time limit by `now` (uptime nanoseconds); the
    /// server's sweep calls it for every connection. `stopping`: the server is draining.
    func closeIfOverdue(now: UInt64, stopping: Bool) {
        server.assertOnLoop()
        func older(than seconds: Double, _ time: UInt64) -> Bool {
            seconds.isFinite && now > time && Double(now - time) > seconds * 1e9
        }
        if case .closed = state { return }
        noteReadingProgress(now: now)
        switch state {
        case .closed:
            return
        case .open:
            if !readSuspended, let since = partialRequestSince, older(than: limits.requestTimeout, since) {
                server.count { $0.requestsTimedOut += 1 }
                close()
                return
            }
        case .draining:
            if stopping, unsentBytes > 0, older(than: limits.drainStallTimeout, lastActivity) {
                close()
                return
            }
        }
        // Idle: no request arrived and no output went out, no subscription, no request with
        // the handler. A client that leaves its replies unread is idle too: its socket takes
        // nothing.
        guard subscription == nil, slots.count == slotsHead, older(than: limits.idleTimeout, lastActivity) else {
            return
        }
        server.count {
            if unsentBytes > 0 { $0.connectionsCutOff += 1 } else { $0.connectionsTimedOut += 1 }
        }
        close()
    }

    /// Counts the peer's reading as activity: a slow reader of a large reply may keep the
    /// socket from taking a byte for longer than the idle timeout (it takes more only once
    /// about three quarters of what waits is read), yet the queue shrinks as it reads.
    private func noteReadingProgress(now: UInt64) {
        guard unreadAtLastSweep > 0 || outputStart < output.count else { return }
        let unread = SocketSendQueue.unreadByteCount(descriptor) ?? 0
        if unread < unreadAtLastSweep { lastActivity = now }
        unreadAtLastSweep = unread
    }

    // MARK: Reading

    /// Reads what the client sent; called when the server's ``ReadinessLoop`` reports input
    /// (possibly just after reading was suspended: then it does nothing).
    func readAvailable() {
        server.assertOnLoop()
        guard case .open = state, !readSuspended, !inputEnded else { return }
        // Bounded so one fast client cannot starve the others sharing the loop; input left
        // unread is reported again.
        for _ in 0..<4 {
            let count: Int
            do {
                count = try SystemCall.run("read") {
                    server.readBuffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                }
            } catch {
                if !error.wouldBlock { close() }
                return
            }
            if count == 0 {
                // The peer finished sending (`socat` after its input ends): answer what it
                // asked — the requests flow control still holds in the framer too — then
                // close. The descriptor is no longer watched (it would report the end again
                // and again); the held requests are taken as room allows.
                inputEnded = true
                suspendReading()
                resumeReading()
                return
            }
            server.readBuffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            processMessages()
            // A short read emptied the socket: another would only fail with EAGAIN.
            guard case .open = state, !readSuspended, count == server.readBuffer.count else { return }
        }
    }

    private func processMessages() {
        // Every reply to what one read brought is written with one `send`, not one each:
        // fewer system calls here, and fewer wake-ups for a client that pipelines.
        coalescingWrites = true
        // Counted once per read, not once per request: the counters are behind a mutex.
        var taken = 0
        func countTaken() {
            if taken > 0 { server.count { $0.requests += taken } }
            taken = 0
        }
        defer {
            countTaken()
            coalescingWrites = false
            writeOutput()
        }
        var tookMessage = false
        while case .open = state {
            if !canDispatch {
                // What the socket takes now makes room at once; otherwise wait for the client.
                writeOutput()
                guard canDispatch else {
                    suspendReading()
                    return
                }
            }
            // Nothing owed before them: the frames the handler answers in place go straight
            // from the read bytes to the output, up to the output limit (`canDispatch` with
            // nothing held in slots).
            if slotsHead == slots.count {
                let before = output.count
                let answered = server.handler.answerFrames(
                    from: &framer, appendingTo: &output, outputLimit: outputStart + limits.maxOutputBufferBytes)
                if answered > 0 {
                    queuedTotal += UInt64(output.count - before)
                    tookMessage = true
                    taken += answered
                    continue
                }
            }
            guard let message = framer.nextMessage() else { break }
            tookMessage = true
            taken += 1
            let encoding = message.encoding
            switch WireCodec.decodeRequest(message) {
            case .failure(let failure):
                server.count { $0.errors += 1 }
                appendFilledSlot(WireCodec.encode(failure.reply, as: encoding), id: failure.id, encoding: encoding)
                if case .streamError = message { beginDraining() }
            case .success(let request) where request.operation == .subscribe:
                if subscription == nil { server.count { $0.subscribers += 1 } }
                subscription = encoding
                appendFilledSlot(
                    WireCodec.encode(.reply(id: request.id, .ok), as: encoding), id: request.id, encoding: encoding)
            case .success(let request):
                // What the handler reports (`status`, `metrics`) counts this request and those
                // before it, as when each was counted on arrival.
                switch request.operation.kind {
                case .lookup, .batch: break
                default: countTaken()
                }
                if let reply = server.handler.answerAtOnce(request, from: peer) {
                    appendReply(reply, to: request.id, encoding: encoding)
                } else {
                    dispatch(request, encoding: encoding)
                }
            }
        }
        if tookMessage { lastActivity = DispatchTime.now().uptimeNanoseconds }
        if inputEnded, case .open = state {
            beginDraining()
            return
        }
        // The framer needs more bytes: the request it holds part of is the client's to finish.
        if framer.bufferedByteCount == 0 {
            partialRequestSince = nil
        } else if tookMessage || partialRequestSince == nil {
            partialRequestSince = DispatchTime.now().uptimeNanoseconds
        }
    }

    private func dispatch(_ request: WireRequest, encoding: WireEncoding) {
        let sequence = firstSequence + UInt64(slots.count - slotsHead)
        slots.append(Slot(bytes: nil, id: request.id, encoding: encoding))
        // A table may be megabytes, resolved and encoded off this queue (by the handler, and
        // below): its size is unknown until then, so nothing more is taken meanwhile.
        if case .table = request.operation { tableSequence = sequence }
        let server = self.server
        let id = request.id
        // `self`, not a weak reference: one would move this object's reference counts to a
        // side table, making every retain of it slower; a late reply to a closed connection is
        // dropped by `complete`.
        let answer: @Sendable (WireReply, [SegmentSlab]) -> Void = { [self] reply, attachment in
            let bytes = WireCodec.encode(.reply(id: id, reply), as: encoding)
            let isError = if case .error = reply { true } else { false }
            // Encoded above, on the thread that answered: a large reply costs that thread,
            // not the loop every client shares.
            server.onLoop { self.complete(sequence, with: bytes, isError: isError, attachment: attachment) }
        }
        if case .map = request.operation {
            server.handler.handleMap(from: peer, reply: answer)
        } else {
            server.handler.handle(request, from: peer) { answer($0, []) }
        }
    }

    /// A reply the handler gave at once. Encoded straight into the output when no earlier
    /// reply is still owed (then none is held in `slots`, and order is kept by appending),
    /// else into its place in the order.
    private func appendReply(_ reply: WireReply, to id: WireRequestID?, encoding: WireEncoding) {
        if case .error = reply { server.count { $0.errors += 1 } }
        let message = WireServerMessage.reply(id: id, reply)
        guard slotsHead == slots.count else {
            return appendFilledSlot(WireCodec.encode(message, as: encoding), id: id, encoding: encoding)
        }
        let before = output.count
        WireCodec.encode(message, as: encoding, appendingTo: &output)
        queuedTotal += UInt64(output.count - before)
        if !coalescingWrites { writeOutput() }
    }

    private func complete(
        _ sequence: UInt64, with bytes: [UInt8], isError: Bool, attachment: [SegmentSlab] = []
    ) {
        server.assertOnLoop()
        if sequence == tableSequence { tableSequence = nil }
        guard !isClosed, sequence >= firstSequence else { return }
        let index = slotsHead + Int(sequence - firstSequence)
        guard index < slots.count, slots[index].bytes == nil else { return }
        if isError { server.count { $0.errors += 1 } }
        slots[index].bytes = bytes
        slots[index].attachment = attachment
        heldBytes += bytes.count
        flushSlots()
    }

    /// Queues an event for a subscriber, behind the replies already owed.
    ///
    /// Events are not asked for, so no flow control can hold them back: a subscriber that
    /// leaves more than the output limit of them unread is cut off instead.
    func push(_ bytes: [UInt8]) {
        server.assertOnLoop()
        guard case .open = state else { return }
        eventBytesUnsent += bytes.count
        if eventBytesUnsent > limits.maxOutputBufferBytes {
            server.count { $0.connectionsCutOff += 1 }
            close()
            return
        }
        appendFilledSlot(bytes, id: nil, encoding: subscription ?? .jsonLines, isEvent: true)
    }

    private func appendFilledSlot(
        _ bytes: [UInt8], id: WireRequestID?, encoding: WireEncoding, isEvent: Bool = false
    ) {
        slots.append(Slot(bytes: bytes, id: id, encoding: encoding, isEvent: isEvent))
        heldBytes += bytes.count
        flushSlots()
    }

    /// Moves the answered slots at the head of the order to the output, then writes.
    private func flushSlots() {
        while slotsHead < slots.count, let bytes = slots[slotsHead].bytes {
            heldBytes -= bytes.count
            let slabs = slots[slotsHead].attachment
            if !slabs.isEmpty, !bytes.isEmpty {
                // A map reply's slabs count against the output limit by their size until the
                // peer reads the reply: one that maps and never reads is cut off, as a slow
                // reader, instead of pinning the slabs of every generation.
                // Slabs pinned already (pipelined maps, unchanged segments) cost nothing more.
                var pinned = pinnedSlabs()
                let before = pinned.count
                for slab in slabs { pinned[slab.serial] = slab.size }
                if before > 0, pinned.count > before, pinned.values.reduce(0, +) > limits.maxOutputBufferBytes {
                    server.count { $0.connectionsCutOff += 1 }
                    close()
                    return
                }
                unsentAttachments.append((start: queuedTotal, slabs: slabs))
            }
            // Taken whole when nothing waits before it: a reply of many megabytes is not copied.
            if outputStart == output.count {
                output = bytes
                outputStart = 0
            } else {
                output.append(contentsOf: bytes)
            }
            queuedTotal += UInt64(bytes.count)
            if slots[slotsHead].isEvent { unsentEvents.append((end: queuedTotal, size: bytes.count)) }
            slotsHead += 1
            firstSequence += 1
        }
        if slotsHead == slots.count {
            slots.removeAll(keepingCapacity: true)
            slotsHead = 0
        } else if slotsHead > 64 && slotsHead * 2 > slots.count {
            slots.removeSubrange(0..<slotsHead)
            slotsHead = 0
        }
        if !coalescingWrites {
            writeOutput()
        } else if readSuspended, case .open = state, canDispatch {
            resumeReading()
        }
    }

    /// The slabs this connection holds for the peer, their sizes by serial: waiting to be
    /// sent, or sent with a reply the peer has not read yet (``SocketSendQueue``).
    private func pinnedSlabs() -> [UInt64: Int] {
        if !sentAttachments.isEmpty {
            let unread = UInt64(SocketSendQueue.unreadByteCount(descriptor) ?? 0)
            let read = writtenTotal > unread ? writtenTotal - unread : 0
            sentAttachments.removeAll { $0.start < read }
        }
        var slabs: [UInt64: Int] = [:]
        for slab in (sentAttachments + unsentAttachments).flatMap(\.slabs) { slabs[slab.serial] = slab.size }
        return slabs
    }

    // MARK: Writing

    private func writeOutput() {
        server.assertOnLoop()
        guard !isClosed else { return }
        while outputStart < output.count {
            let written: Int
            do throws(SocketError) {
                // Slabs go with the first byte of their reply, and the bytes before it without:
                // a send stops short of the next reply that carries some.
                let attachment = unsentAttachments.first.flatMap { $0.start == writtenTotal ? $0 : nil }
                let next = attachment == nil ? 0 : 1
                let end =
                    next < unsentAttachments.count
                    ? outputStart + Int(unsentAttachments[next].start - writtenTotal) : output.count
                if let attachment {
                    // withUnsafeBytes rethrows untyped: the typed error rides out in a Result.
                    written = try output.withUnsafeBytes { buffer in
                        Result { () throws(SocketError) in
                            try DescriptorPassing.send(
                                UnsafeRawBufferPointer(rebasing: buffer[outputStart..<end]),
                                attachingNumbers: attachment.slabs.map(\.descriptor), over: descriptor)
                        }
                    }.get()
                    unsentAttachments.removeFirst()
                    sentAttachments.append((start: writtenTotal, slabs: attachment.slabs))
                } else {
                    written = try SystemCall.run("send") {
                        output.withUnsafeBytes { buffer in
                            // MSG_NOSIGNAL: a vanished peer is an EPIPE for this connection, not a
                            // SIGPIPE that kills the daemon.
                            guard let base = buffer.baseAddress else { return 0 }
                            return send(descriptor, base + outputStart, end - outputStart, Int32(MSG_NOSIGNAL))
                        }
                    }
                }
            } catch {
                if error.wouldBlock { break }
                close()
                return
            }
            outputStart += written
            noteWritten(written)
            lastActivity = DispatchTime.now().uptimeNanoseconds
        }
        let pending = output.count - outputStart
        if pending == 0 {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputStart = 0
            if case .draining = state, slots.count == slotsHead {
                close()
                return
            }
        } else {
            if outputStart >= 64 * 1024 && outputStart * 2 >= output.count {
                output.removeSubrange(0..<outputStart)
                outputStart = 0
            }
        }
        // Room made by the client's reading lets its next requests in.
        if readSuspended, case .open = state, canDispatch {
            resumeReading()
        } else {
            updateInterest()
        }
    }

    /// Forgets the events that have now gone out entirely.
    private func noteWritten(_ count: Int) {
        writtenTotal += UInt64(count)
        while unsentEventsHead < unsentEvents.count, unsentEvents[unsentEventsHead].end <= writtenTotal {
            eventBytesUnsent -= unsentEvents[unsentEventsHead].size
            unsentEventsHead += 1
        }
        if unsentEventsHead == unsentEvents.count && unsentEventsHead > 0 {
            unsentEvents.removeAll(keepingCapacity: true)
            unsentEventsHead = 0
        }
    }

    /// Tells the loop what to watch the socket for: input while requests are taken, room to
    /// write while output waits; with neither, takes it out of the loop's set (a hang-up is
    /// reported whatever is asked, and would be reported again and again).
    private func updateInterest() {
        guard !isClosed, let readiness = server.readiness else { return }
        let input = !readSuspended && !inputEnded
        let output = outputStart < self.output.count
        guard input != watchingInput || output != watchingOutput else { return }
        let added = watchingInput || watchingOutput
        if !input && !output {
            readiness.unwatch(descriptor)
        } else {
            do {
                try readiness.watch(descriptor, token: number, input: input, output: output, added: added)
            } catch {
                // No room in the epoll set: this connection cannot be served.
                watchingInput = false
                watchingOutput = false
                close()
                return
            }
        }
        watchingInput = input
        watchingOutput = output
    }

    // MARK: Lifecycle

    private func resumeReading() {
        guard readSuspended, case .open = state else { return }
        readSuspended = false
        updateInterest()
        guard case .open = state else { return }
        // Requests read before the pause may wait in the framer, and no input will announce
        // them: a burst past the limit sent in one write would stall forever.
        if framer.bufferedByteCount > 0 || inputEnded {
            server.later { [self] in processBufferedMessages() }
        }
    }

    private func processBufferedMessages() {
        server.assertOnLoop()
        guard case .open = state, !readSuspended else { return }
        processMessages()
    }

    private func suspendReading() {
        guard !readSuspended else { return }
        readSuspended = true
        partialRequestSince = nil
        updateInterest()
    }

    /// Stops reading; the connection closes once every owed reply is written.
    func beginDraining() {
        server.assertOnLoop()
        guard case .open = state else { return }
        state = .draining
        suspendReading()
        if slots.count == slotsHead && outputStart == output.count { close() }
    }

    /// Answers every request still with the handler `unavailable`, in its place in the order:
    /// the server stops before they are answered (a `map` waiting for a compile), and the
    /// client must hear that it may ask again, not see its connection close mid-request.
    func answerPendingAsUnavailable() {
        server.assertOnLoop()
        guard !isClosed, slotsHead < slots.count else { return }
        let error = WireError(
            code: .unavailable, message: "l10nd stopped before answering this request; ask again when it is back")
        for index in slotsHead..<slots.count where slots[index].bytes == nil {
            let bytes = WireCodec.encode(.reply(id: slots[index].id, .error(error)), as: slots[index].encoding)
            slots[index].bytes = bytes
            heldBytes += bytes.count
            server.count { $0.errors += 1 }
        }
        tableSequence = nil
        flushSlots()
    }

    /// Closes at once, dropping whatever is unsent. Idempotent.
    func close() {
        server.assertOnLoop()
        guard !isClosed else { return }
        let wasSubscribed = subscription != nil
        state = .closed
        output = []
        slots = []
        unsentAttachments = []
        sentAttachments = []
        // Out of the loop's set before the number can go to another descriptor.
        if watchingInput || watchingOutput { server.readiness?.unwatch(descriptor) }
        watchingInput = false
        watchingOutput = false
        readSuspended = true
        socket.take()?.close()
        server.connectionClosed(self, wasSubscribed: wasSubscribed)
    }
}
