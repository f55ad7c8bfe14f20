import Glibc
import LocalizationSockets
import LocalizationWire

/// The reading half of one connection to `l10nd`: reads bytes, cuts them into frames and
/// decodes replies and events. The one place that turns read and decoding failures into
/// ``DaemonConnectionError``s.
///
/// `@unchecked Sendable` because it is confined, not locked: one thread reads it at a time —
/// the ``DaemonConnection`` caller holding its turn, or, for a ``LocalizationClient``'s
/// connection, the ``ConnectionLoop`` thread, which ``readAvailable(using:on:)`` asserts.
final class MessageReader: @unchecked Sendable {
    /// What one read brought: the messages it completed, in order, and the failure that
    /// ended the connection, if any, after them.
    struct ReadOutcome {
        var messages: [WireServerMessage] = []
        var failure: DaemonConnectionError?
    }

    /// The number naming this socket in the ``ConnectionLoop``, shared with its writer.
    let token: UInt64
    private let socket: UnixStreamSocket
    private var framer = MessageFramer(maxMessageBytes: 256 << 20)
    /// Descriptors received and not yet claimed by a `map` reply, oldest first (owned: closed
    /// when claimed or in `deinit`). A descriptor arrives with the read that brings the first
    /// byte of its reply, so it waits here until that reply is complete.
    private var descriptors: [Int32] = []

    /// The most unclaimed descriptors kept: a daemon that sends more breaks the protocol.
    private static let maxUnclaimedDescriptors = 4

    /// Opens the socket's reading half; `token` names the connection in the loop.
    init(socket: UnixStreamSocket, token: UInt64) {
        self.socket = socket
        self.token = token
    }

    deinit {
        descriptors.filter { $0 >= 0 }.forEach { FileDescriptor(adopting: $0).close() }
    }

    /// The descriptor, to wait for input on; owned by the socket.
    var descriptor: Int32 { socket.descriptor }

    /// The next reply or event, waiting for it; a wait longer than the time limit is a
    /// `.timeout` error (the connection is still usable), a closed or broken connection is
    /// `.unreachable`.
    func receive() throws(DaemonConnectionError) -> WireServerMessage {
        while true {
            if let message = framer.nextMessage() { return try Self.decode(message) }
            let bytes: [UInt8]
            do { bytes = try socket.receive() } catch { throw DaemonConnectionError(socketFailure: error) }
            guard !bytes.isEmpty else { throw Self.closedByDaemon }
            framer.append(contentsOf: bytes)
        }
    }

    /// Reads what has arrived without waiting (into `buffer`, then the framer) and returns
    /// the messages now complete; the end of the connection is a failure.
    func readAvailable(using buffer: UnsafeMutableRawBufferPointer, on loop: ConnectionLoop) -> ReadOutcome {
        loop.assertOnLoopThread()
        let count: Int
        do {
            // recvmsg, not recv: a `map` reply's descriptor would be closed by a plain read.
            var received = try DescriptorPassing.receive(
                into: buffer, from: socket.descriptor, flags: Int32(MSG_DONTWAIT), keepingLostDescriptor: true)
            count = received.count
            if let descriptor = received.descriptor.take() { keep(descriptor) }
            // Its place is kept, so the `map` reply that claims it fails, not the next one's.
            if received.lostDescriptor { keep(lost: ()) }
        } catch {
            return error.wouldBlock ? ReadOutcome() : ReadOutcome(failure: DaemonConnectionError(socketFailure: error))
        }
        guard count > 0 else { return ReadOutcome(failure: Self.closedByDaemon) }
        framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        var outcome = ReadOutcome()
        while let message = framer.nextMessage() {
            do throws(DaemonConnectionError) {
                outcome.messages.append(claimDescriptor(for: try Self.decode(message)))
            } catch {
                outcome.failure = error
                break
            }
        }
        return outcome
    }

    /// Keeps the place of a descriptor the kernel dropped (no descriptor was free).
    private func keep(lost: Void) {
        descriptors.append(-1)
        if descriptors.count > Self.maxUnclaimedDescriptors { discardOldest() }
    }

    private func discardOldest() {
        let oldest = descriptors.removeFirst()
        if oldest >= 0 { FileDescriptor(adopting: oldest).close() }
    }

    private func keep(_ descriptor: consuming FileDescriptor) {
        descriptors.append(descriptor.take())
        if descriptors.count > Self.maxUnclaimedDescriptors { discardOldest() }
    }

    /// `message` with the descriptor its `map` reply announces (`"descriptor":true`) checked
    /// and mapped (``SealedMemoryMapping``), and held in ``ReceivedMappings`` under the number
    /// the reply's `mapping` field now gives; a descriptor that fails the checks, or is missing,
    /// turns the reply into an error. Other messages pass unchanged.
    private func claimDescriptor(for message: WireServerMessage) -> WireServerMessage {
        guard case .reply(let id, .fields(var fields)) = message, fields["descriptor"]?.boolValue == true else {
            return message
        }
        func failure(_ text: String) -> WireServerMessage {
            .reply(id: id, .error(WireError(code: WireError.Code(rawValue: "unsealed_memory"), message: text)))
        }
        guard !descriptors.isEmpty else { return failure("the map reply came without its descriptor") }
        guard descriptors[0] >= 0 else {
            descriptors.removeFirst()
            return failure("\(FrameSocket.noDescriptorFree) to receive the map reply's tables")
        }
        let descriptor = FileDescriptor(adopting: descriptors.removeFirst())
        // Closed when `descriptor` goes (FileDescriptor closes itself): the mapping keeps the file.
        guard let size = fields["size"]?.integerValue, let size = Int(exactly: size) else {
            return failure("the map reply announces no size")
        }
        do {
            let mapping = try SealedMemoryMapping(verifying: descriptor, size: size)
            fields["mapping"] = .integer(ReceivedMappings.hold(mapping))
            return .reply(id: id, .fields(fields))
        } catch {
            return failure(error.message)
        }
    }

    private static var closedByDaemon: DaemonConnectionError {
        DaemonConnectionError(code: .unreachable, message: "the daemon closed the connection")
    }

    private static func decode(_ message: FramedMessage) throws(DaemonConnectionError) -> WireServerMessage {
        do { return try WireCodec.decodeServerMessage(message) } catch {
            throw DaemonConnectionError(
                code: .protocolError, message: "the daemon sent a message this client cannot read: \(error.message)")
        }
    }
}
