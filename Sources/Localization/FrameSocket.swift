import Glibc
import LocalizationSockets
import LocalizationWire

/// One connected socket to `l10nd` speaking binary frames: writes requests, reads replies
/// and events. The one place that turns socket and decoding failures into
/// ``DaemonConnectionError``s, shared by ``DaemonConnection`` and ``LocalizationClient``.
///
/// `@unchecked Sendable` because its two halves are used from two threads: ``send(_:)`` is
/// called by whoever holds the owner's write lock, ``receive()`` only by the one reading
/// thread (the framer is touched by nobody else). The kernel allows one reader and one
/// writer on a stream socket at once.
final class FrameSocket: @unchecked Sendable {
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
        do { try socket.send(BinaryFrameCodec.encode(request)) } catch { throw Self.failure(error) }
    }

    /// The next reply or event; a wait longer than the time limit is a `.timeout` error
    /// (the connection is still usable), a closed or broken connection is `.unreachable`.
    func receive() throws(DaemonConnectionError) -> WireServerMessage {
        while true {
            if let message = framer.nextMessage() {
                do { return try WireCodec.decodeServerMessage(message) } catch {
                    throw DaemonConnectionError(
                        code: .protocolError,
                        message: "the daemon sent a message this client cannot read: \(error.message)")
                }
            }
            let bytes: [UInt8]
            do { bytes = try socket.receive() } catch { throw Self.failure(error) }
            guard !bytes.isEmpty else {
                throw DaemonConnectionError(code: .unreachable, message: "the daemon closed the connection")
            }
            framer.append(contentsOf: bytes)
        }
    }

    /// Sends `operation` and reads until its reply, skipping events; for a connection with
    /// nothing else in flight (the handshake, ``DaemonConnection``).
    func roundTrip(_ operation: WireOperation, id: UInt32) throws(DaemonConnectionError) -> WireReply {
        try send(WireRequest(id: .number(Int64(id)), operation: operation))
        while true {
            if case .reply(_, let reply) = try receive() { return reply }
        }
    }

    private static func failure(_ error: SocketError) -> DaemonConnectionError {
        if error.wouldBlock {
            return DaemonConnectionError(code: .timeout, message: "the daemon did not answer in time")
        }
        return DaemonConnectionError(code: .unreachable, message: error.message)
    }
}
