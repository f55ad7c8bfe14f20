import Glibc

/// The C convention "-1 means look at `errno`, and `EINTR` means try again", kept in one
/// place: ``SystemCall/run(_:_:)`` for calls that follow it, ``SystemCall/error(_:errno:)``
/// for the `SocketError` of a call whose failure is read another way (`epoll_wait`, where
/// `EINTR` means "no events", or `mkdir`, where `EEXIST` is no failure).
package enum SystemCall {
    /// Calls `body` until it is not interrupted by a signal; a result of -1 becomes a
    /// ``SocketError`` naming `name` and the C error.
    @discardableResult
    package static func run<Result: FixedWidthInteger & SignedInteger>(
        _ name: String, _ body: () -> Result
    ) throws(SocketError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw error(name, errno: code)
        }
    }

    /// A ``SocketError`` for a failed call, with the C error's name and text.
    package static func error(_ name: String, errno code: Int32) -> SocketError {
        SocketError(
            code: .systemCall, errno: code,
            message: "\(name) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}

extension SocketError {
    /// Whether the call failed only because a non-blocking descriptor was not ready.
    package var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}
