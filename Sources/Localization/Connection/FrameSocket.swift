import Glibc
import LocalizationSockets
import LocalizationWire

/// One connected socket to `l10nd` speaking binary frames: writes requests, reads replies
/// and events. The one place that turns socket and decoding failures into
/// ``DaemonConnectionError``s, shared by ``DaemonConnection`` and ``LocalizationClient``.
///
/// `@unchecked Sendable` because its two halves are used from two threads: ``send(_:)`` is
/// called by one writer at a time (its owner serialises them), the reading methods by one
/// thread at a time (the framer is touched by nobody else): the handshake's thread, then
/// the ``ReplyReader`` once the socket is handed to it. The kernel allows one reader and one
/// writer on a stream socket at once.
final class FrameSocket: @unchecked Sendable {
    /// What one read brought: the messages it completed, in order, and the failure that
    /// ended the connection, if any, after them.
    struct ReadOutcome {
        var messages: [WireServerMessage] = []
        var failure: DaemonConnectionError?
    }

    private let socket: UnixStreamSocket
    private var framer = MessageFramer(maxMessageBytes: 256 << 20)

    /// Connects to `path`; `timeout` bounds each send and each wait for bytes.
    init(path: String, timeout: Double) throws(DaemonConnectionError) {
        do { socket = try UnixStreamSocket(path: path, timeout: timeout) } catch {
            throw DaemonConnectionError(code: .unreachable, message: error.message)
        }
    }

    /// Writes one request as a binary frame.
    func send(_ request: WireRequest) throws(DaemonConnectionError) {
        try send(frames: BinaryFrameCodec.encode(request))
    }

    /// Writes whole frames, already encoded, with as few `send`s as the socket allows.
    func send(frames: [UInt8]) throws(DaemonConnectionError) {
        do { try socket.send(frames) } catch { throw Self.failure(error) }
    }

    /// The next reply or event; a wait longer than the time limit is a `.timeout` error
    /// (the connection is still usable), a closed or broken connection is `.unreachable`.
    func receive() throws(DaemonConnectionError) -> WireServerMessage {
        while true {
            if let message = framer.nextMessage() { return try Self.decode(message) }
            let bytes: [UInt8]
            do { bytes = try socket.receive() } catch { throw Self.failure(error) }
            guard !bytes.isEmpty else {
                throw DaemonConnectionError(code: .unreachable, message: "the daemon closed the connection")
            }
            framer.append(contentsOf: bytes)
        }
    }

    /// The descriptor, to wait for input on; owned by this socket.
    var descriptor: Int32 { socket.descriptor }

    /// Reads what has arrived without waiting (into `buffer`, then the framer) and returns
    /// the messages now complete; the end of the connection is a failure.
    func readAvailable(using buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        let count: Int
        do {
            count = try SystemCall.run("recv") {
                recv(socket.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            }
        } catch {
            return error.wouldBlock ? ReadOutcome() : ReadOutcome(failure: Self.failure(error))
        }
        guard count > 0 else {
            return ReadOutcome(
                failure: DaemonConnectionError(code: .unreachable, message: "the daemon closed the connection"))
        }
        framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        return bufferedMessages()
    }

    /// The messages already complete in the framer: a read for one reply may have brought
    /// the next ones too.
    func bufferedMessages() -> ReadOutcome {
        var outcome = ReadOutcome()
        while let message = framer.nextMessage() {
            do throws(DaemonConnectionError) { outcome.messages.append(try Self.decode(message)) } catch {
                outcome.failure = error
                break
            }
        }
        return outcome
    }

    /// Sends `operation` and reads until its reply, skipping events; for a connection with
    /// nothing else in flight (the handshake, ``DaemonConnection``).
    func roundTrip(_ operation: WireOperation, id: UInt32) throws(DaemonConnectionError) -> WireReply {
        try send(WireRequest(id: .number(Int64(id)), operation: operation))
        while true {
            if case .reply(_, let reply) = try receive() { return reply }
        }
    }

    private static func decode(_ message: FramedMessage) throws(DaemonConnectionError) -> WireServerMessage {
        do { return try WireCodec.decodeServerMessage(message) } catch {
            throw DaemonConnectionError(
                code: .protocolError, message: "the daemon sent a message this client cannot read: \(error.message)")
        }
    }

    private static func failure(_ error: SocketError) -> DaemonConnectionError {
        if error.wouldBlock {
            return DaemonConnectionError(code: .timeout, message: "the daemon did not answer in time")
        }
        return DaemonConnectionError(code: .unreachable, message: error.message)
    }
}
