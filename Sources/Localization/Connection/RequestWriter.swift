import LocalizationSockets
import LocalizationWire
import Synchronization

/// The writing half of one connection to `l10nd`: sends whole binary frames on its socket.
///
/// Callers on any thread write through it, one at a time: the one holding its turn
/// (``withTurn(_:)``) writes, and a caller that must wait for the write in progress to end
/// (its ``RequestOutbox`` is full) waits for the turn. The kernel lets this half write
/// while the ``MessageReader`` of the same socket reads on the ``ConnectionLoop`` thread.
final class RequestWriter: Sendable {
    /// The number naming this socket in the ``ConnectionLoop``, shared with its reader.
    let token: UInt64
    private let socket: UnixStreamSocket
    /// Held for as long as a caller writes.
    private let turn = ForkSafeMutex(())

    /// Opens the socket's writing half; `token` names the connection in the loop.
    init(socket: UnixStreamSocket, token: UInt64) {
        self.socket = socket
        self.token = token
    }

    /// Writes whole frames, already encoded, with as few `send`s as the socket allows.
    func send(frames: [UInt8]) throws(DaemonConnectionError) {
        do { try socket.send(frames) } catch { throw DaemonConnectionError(socketFailure: error) }
    }

    /// Writes what the socket takes now of `frames` without waiting (possibly part of a
    /// frame); returns how many bytes it took.
    func sendAvailable(frames: ArraySlice<UInt8>) throws(DaemonConnectionError) -> Int {
        do { return try socket.sendAvailable(frames) } catch { throw DaemonConnectionError(socketFailure: error) }
    }

    /// Writes one request as a binary frame.
    func send(_ request: WireRequest) throws(DaemonConnectionError) {
        try send(frames: BinaryFrameCodec.encode(request))
    }

    /// Runs `body` while no other caller writes.
    func withTurn<Result>(_ body: () -> Result) -> Result {
        turn.withLock { _ in body() }
    }
}

extension DaemonConnectionError {
    /// The error for a failed socket call: a wait past the time limit is `.timeout` (the
    /// connection is still usable), anything else `.unreachable`.
    init(socketFailure error: SocketError) {
        if error.wouldBlock {
            self.init(code: .timeout, message: "the daemon did not answer in time")
        } else {
            self.init(code: .unreachable, message: error.message)
        }
    }
}
