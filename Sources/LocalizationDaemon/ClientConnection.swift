import Dispatch
import Glibc
import LocalizationSockets
import LocalizationWire

/// One accepted client: reads and frames its bytes, hands requests to the handler, and
/// writes the replies back in request order.
///
/// Every method runs on the server's queue and all mutable state is confined to it, which
/// is what makes the `@unchecked Sendable` sound: the reply closures given to the handler
/// may be called on any thread, and they hop onto the queue before touching anything.
///
/// Ordering: each request takes a slot in ``slots`` when it arrives; a reply fills its slot;
/// the filled slots at the head are moved to ``output`` and written. A slow `reload` thus
/// holds back the lookups pipelined after it, as the protocol promises.
final class ClientConnection: @unchecked Sendable {
    /// A place in the reply order.
    private struct Slot {
        var bytes: [UInt8]?
        let id: WireRequestID?
        let encoding: WireEncoding
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
    private let descriptor: Int32
    private let queue: DispatchQueue
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
    private(set) var lastActivity: UInt64

    /// Made the first time a reply cannot be written at once: most connections never need
    /// one, and registering and tearing down a source per connection is epoll churn
    /// (libdispatch's muxnote bookkeeping has crashed under such churn, see RELIABILITY.md).
    private var writeSource: (any DispatchSourceWrite)?
    /// Whether the server's ``ReadinessLoop`` does not watch this descriptor now.
    private var readSuspended = true
    private var writeSuspended = true
    /// Sources made and not yet cancelled: the descriptor is closed once the connection is
    /// and none is left.
    private var openSources = 0
    /// Set while ``processMessages()`` runs: replies collect in `output` until it ends.
    private var coalescingWrites = false

    init(
        descriptor: Int32, peer: PeerInfo, number: UInt64, server: SocketServer, queue: DispatchQueue,
        limits: ServerLimits
    ) {
        self.descriptor = descriptor
        self.peer = peer
        self.number = number
        self.server = server
        self.queue = queue
        self.limits = limits
        self.framer = MessageFramer(maxMessageBytes: limits.maxMessageBytes)
        self.lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    /// Starts reading. Called once, on the queue.
    func start() {
        resumeReading()
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether the idle timeout may close this connection now.
    func isIdle(since deadline: UInt64) -> Bool {
        guard case .open = state, subscription == nil, slots.count == slotsHead, outputStart == output.count else {
            return false
        }
        return lastActivity < deadline
    }

    // MARK: Reading

    /// Reads what the client sent; called on the queue when the server's ``ReadinessLoop``
    /// reports input (possibly just after reading was suspended: then it does nothing).
    func readAvailable() {
        guard case .open = state, !readSuspended else { return }
        // Bounded so one fast client cannot starve the others sharing the queue; input left
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
                // asked, then close.
                beginDraining()
                return
            }
            lastActivity = DispatchTime.now().uptimeNanoseconds
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
        defer {
            coalescingWrites = false
            writeOutput()
        }
        while case .open = state, let message = framer.nextMessage() {
            server.count { $0.requests += 1 }
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
                dispatch(request, encoding: encoding)
            }
            if slots.count - slotsHead >= limits.maxPendingRequests {
                suspendReading()
                return
            }
        }
    }

    private func dispatch(_ request: WireRequest, encoding: WireEncoding) {
        let sequence = firstSequence + UInt64(slots.count - slotsHead)
        slots.append(Slot(bytes: nil, id: request.id, encoding: encoding))
        let queueKey = server.queueKey
        let queue = self.queue
        // `self`, not a weak reference: one would move this object's reference counts to a
        // side table, making every retain of it slower; a late reply to a closed connection is
        // dropped by `complete`.
        server.handler.handle(request, from: peer) { [self] reply in
            if DispatchQueue.getSpecific(key: queueKey) != nil {
                complete(sequence, with: reply)
            } else {
                queue.async { self.complete(sequence, with: reply) }
            }
        }
    }

    private func complete(_ sequence: UInt64, with reply: WireReply) {
        guard !isClosed, sequence >= firstSequence else { return }
        let index = slotsHead + Int(sequence - firstSequence)
        guard index < slots.count, slots[index].bytes == nil else { return }
        if case .error = reply { server.count { $0.errors += 1 } }
        let bytes = WireCodec.encode(.reply(id: slots[index].id, reply), as: slots[index].encoding)
        slots[index].bytes = bytes
        heldBytes += bytes.count
        flushSlots()
    }

    /// Queues an event for a subscriber, behind the replies already owed.
    func push(_ bytes: [UInt8]) {
        guard case .open = state else { return }
        appendFilledSlot(bytes, id: nil, encoding: subscription ?? .jsonLines)
    }

    private func appendFilledSlot(_ bytes: [UInt8], id: WireRequestID?, encoding: WireEncoding) {
        slots.append(Slot(bytes: bytes, id: id, encoding: encoding))
        heldBytes += bytes.count
        flushSlots()
    }

    /// Moves the answered slots at the head of the order to the output, then writes.
    private func flushSlots() {
        while slotsHead < slots.count, let bytes = slots[slotsHead].bytes {
            heldBytes -= bytes.count
            output.append(contentsOf: bytes)
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
        if readSuspended, case .open = state, slots.count - slotsHead < limits.maxPendingRequests {
            resumeReading()
        }
        if !coalescingWrites { writeOutput() }
    }

    // MARK: Writing

    private func writeOutput() {
        guard !isClosed else { return }
        while outputStart < output.count {
            let written: Int
            do {
                written = try SystemCall.run("send") {
                    output.withUnsafeBytes { buffer in
                        // MSG_NOSIGNAL: a vanished peer is an EPIPE for this connection, not a
                        // SIGPIPE that kills the daemon.
                        send(
                            descriptor, buffer.baseAddress! + outputStart, buffer.count - outputStart,
                            Int32(MSG_NOSIGNAL))
                    }
                }
            } catch {
                if error.wouldBlock { break }
                close()
                return
            }
            outputStart += written
            lastActivity = DispatchTime.now().uptimeNanoseconds
        }
        let pending = output.count - outputStart
        if pending == 0 {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputStart = 0
            if !writeSuspended, let writeSource {
                writeSource.suspend()
                writeSuspended = true
            }
            if case .draining = state, slots.count == slotsHead { close() }
            return
        }
        if pending + heldBytes > limits.maxOutputBufferBytes {
            // The client does not read its replies; keeping them would let it grow our memory.
            server.count { $0.connectionsCutOff += 1 }
            close()
            return
        }
        if outputStart >= 64 * 1024 && outputStart * 2 >= output.count {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        if writeSuspended {
            (writeSource ?? makeWriteSource()).resume()
            writeSuspended = false
        }
    }

    /// The write source, made now (suspended) and kept for the connection's life.
    private func makeWriteSource() -> any DispatchSourceWrite {
        let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in writeOutput() }
        source.setCancelHandler { [self] in sourceCancelled() }
        openSources += 1
        writeSource = source
        return source
    }

    private func sourceCancelled() {
        openSources -= 1
        closeDescriptorIfUnused()
    }

    /// The descriptor outlives the connection while a source may still use it.
    private func closeDescriptorIfUnused() {
        if isClosed && openSources == 0 { Glibc.close(descriptor) }
    }

    // MARK: Lifecycle

    private func resumeReading() {
        guard readSuspended, case .open = state, let readiness = server.readiness else { return }
        do { try readiness.watch(descriptor, token: number) } catch {
            close()
            return
        }
        readSuspended = false
        // Requests read before the pause may wait in the framer, and no input will announce
        // them: a burst past the limit sent in one write would stall forever.
        if framer.bufferedByteCount > 0 {
            queue.async { [self] in processBufferedMessages() }
        }
    }

    private func processBufferedMessages() {
        guard case .open = state, !readSuspended else { return }
        processMessages()
    }

    private func suspendReading() {
        guard !readSuspended else { return }
        readSuspended = true
        server.readiness?.unwatch(descriptor)
    }

    /// Stops reading; the connection closes once every owed reply is written.
    func beginDraining() {
        guard case .open = state else { return }
        state = .draining
        suspendReading()
        if slots.count == slotsHead && outputStart == output.count { close() }
    }

    /// Closes at once, dropping whatever is unsent. Idempotent.
    func close() {
        guard !isClosed else { return }
        let wasSubscribed = subscription != nil
        state = .closed
        output = []
        slots = []
        suspendReading()
        // A suspended source must be resumed before it is cancelled, or it is never released.
        if let writeSource, writeSuspended {
            writeSuspended = false
            writeSource.resume()
        }
        writeSource?.cancel()
        closeDescriptorIfUnused()
        server.connectionClosed(self, wasSubscribed: wasSubscribed)
    }
}
