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

    /// Opens the socket's reading half; `token` names the connection in the loop.
    init(socket: UnixStreamSocket, token: UInt64) {
        self.socket = socket
        self.token = token
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
            count = try SystemCall.run("recv") {
                recv(socket.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            }
        } catch {
            return error.wouldBlock ? ReadOutcome() : ReadOutcome(failure: DaemonConnectionError(socketFailure: error))
        }
        guard count > 0 else { return ReadOutcome(failure: Self.closedByDaemon) }
        framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        var outcome = ReadOutcome()
        while let message = framer.nextMessage() {
            do throws(DaemonConnectionError) { outcome.messages.append(try Self.decode(message)) } catch {
                outcome.failure = error
                break
            }
        }
        return outcome
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
