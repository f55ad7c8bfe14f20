import Glibc

/// An open file descriptor with exactly one owner, closed exactly once: by ``close()``, or
/// when the owner goes away without handing it on.
///
/// The value cannot be copied, so two owners cannot each close the same number, and it
/// cannot be used after ``close()`` or ``take()``: the compiler refuses both. C calls
/// borrow the number through ``rawValue``; an owner that must give the number to someone
/// who closes it (libdispatch's cancel handler, a child process) ends its ownership with
/// ``take()``.
///
/// ```swift
/// let socket = try FileDescriptor(systemCall: "socket") {
///     Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
/// }
/// try SystemCall.run("listen") { listen(socket.rawValue, 8) }
/// // closed when `socket` goes out of scope, or earlier by `socket.close()`
/// ```
package struct FileDescriptor: ~Copyable {
    /// The descriptor's number, for C calls while this value owns it; never close it.
    package let rawValue: Int32

    /// Takes ownership of `rawValue`, an open descriptor nobody else closes.
    package init(adopting rawValue: Int32) {
        precondition(rawValue >= 0, "FileDescriptor adopts only open descriptors, not \(rawValue)")
        self.rawValue = rawValue
    }

    /// Runs `open`, a system call that returns a new descriptor, through ``SystemCall/run(_:_:)``
    /// and owns its result.
    package init(systemCall name: String, _ open: () -> Int32) throws(SocketError) {
        self.init(adopting: try SystemCall.run(name, open))
    }

    deinit { Self.release(rawValue) }

    /// Closes the descriptor now rather than when the value goes away.
    ///
    /// There is no error to handle: Linux frees the number even when `close` reports one
    /// (`EINTR`, `EIO`), so retrying could close a descriptor another thread just opened.
    package consuming func close() {
        let rawValue = rawValue
        discard self
        Self.release(rawValue)
    }

    /// Ends this value's ownership without closing, and returns the number to whoever
    /// closes it from now on.
    package consuming func take() -> Int32 {
        let rawValue = rawValue
        discard self
        return rawValue
    }

    private static func release(_ rawValue: Int32) {
        _ = Glibc.close(rawValue)
    }
}
