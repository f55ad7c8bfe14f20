import Glibc
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

    /// How the error of a connection attempt the process had no descriptor for begins: the
    /// reason a ``Localizer`` logs, as it is the process's to fix, not the daemon's.
    static let noDescriptorFree = "no file descriptor free"

    /// Connects to `path`; `timeout` bounds each send and each blocking wait for bytes.
    init(path: String, timeout: Double) throws(DaemonConnectionError) {
        let socket: UnixStreamSocket
        do { socket = try UnixStreamSocket(path: path, timeout: timeout) } catch {
            let short = error.errno == EMFILE || error.errno == ENFILE
            var failure = DaemonConnectionError(
                code: .unreachable, message: short ? "\(Self.noDescriptorFree) (\(error.message))" : error.message)
            failure.permissionRefused = error.errno == EACCES || error.errno == EPERM
            throw failure
        }
        let token = Self.tokens.wrappingAdd(1, ordering: .relaxed).oldValue
        writer = RequestWriter(socket: socket, token: token)
        reader = MessageReader(socket: socket, token: token)
    }

    /// Why the daemon refused this connection, after a send failed with `error`: a daemon
    /// that refuses one (at its connection limit) says why, then closes, so the send meets a
    /// closed socket and the reason is there to read at once. `nil` when it said nothing, or
    /// the send timed out (the daemon is there, and a read would wait again).
    func refusal(after error: DaemonConnectionError) -> WireError? {
        guard error.code != .timeout, case .reply(_, .error(let refusal))? = try? reader.receive() else { return nil }
        return refusal
    }

    /// Sends `operation` and reads until its reply, skipping events; for a connection with
    /// nothing else in flight (``DaemonConnection``).
    func roundTrip(_ operation: WireOperation, id: UInt32) throws(DaemonConnectionError) -> WireReply {
        do {
            try writer.send(WireRequest(id: .number(Int64(id)), operation: operation))
        } catch {
            // That answer, not the broken pipe it leaves, is what the caller gets.
            if let refusal = refusal(after: error) { return .error(refusal) }
            throw error
        }
        while true {
            if case .reply(_, let reply) = try reader.receive() { return reply }
        }
    }
}
