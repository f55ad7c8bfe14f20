import LocalizationSockets
import LocalizationWire
import Synchronization

/// One connected socket to `l10nd` speaking binary frames, as its two halves: the
/// ``RequestWriter`` that callers write through and the ``MessageReader`` that one thread
/// reads through. A ``LocalizationClient``'s connection keeps the writer in its
/// ``ConnectionState`` and gives the reader to the ``ConnectionLoop``; a
/// ``DaemonConnection`` keeps both.
struct FrameSocket: Sendable {
    /// Numbers the sockets of the process, so the ``ConnectionLoop`` tells them apart.
    private static let tokens = Atomic<UInt64>(1)

    let writer: RequestWriter
    let reader: MessageReader

    /// Connects to `path`; `timeout` bounds each send and each blocking wait for bytes.
    init(path: String, timeout: Double) throws(DaemonConnectionError) {
        let socket: UnixStreamSocket
        do { socket = try UnixStreamSocket(path: path, timeout: timeout) } catch {
            throw DaemonConnectionError(code: .unreachable, message: error.message)
        }
        let token = Self.tokens.wrappingAdd(1, ordering: .relaxed).oldValue
        writer = RequestWriter(socket: socket, token: token)
        reader = MessageReader(socket: socket, token: token)
    }

    /// Sends `operation` and reads until its reply, skipping events; for a connection with
    /// nothing else in flight (``DaemonConnection``).
    func roundTrip(_ operation: WireOperation, id: UInt32) throws(DaemonConnectionError) -> WireReply {
        do {
            try writer.send(WireRequest(id: .number(Int64(id)), operation: operation))
        } catch {
            // A daemon that refuses a connection (at its connection limit) says why, then
            // closes: that answer, not the broken pipe it leaves, is what the caller gets.
            // (Not after a send that timed out: the daemon is there, and a read would wait again.)
            if error.code != .timeout, case .reply(_, let reply)? = try? reader.receive(), case .error = reply {
                return reply
            }
            throw error
        }
        while true {
            if case .reply(_, let reply) = try reader.receive() { return reply }
        }
    }
}
