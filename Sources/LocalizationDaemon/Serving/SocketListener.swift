import Glibc
package import LocalizationSockets
import Synchronization

/// A listening Unix stream socket: bound at a path by the daemon, or adopted from systemd.
///
/// Binding is careful with what is already at the path: a socket file nobody listens on
/// (a daemon that crashed) is replaced; a socket someone listens on is left alone with
/// "another l10nd is already listening on PATH"; anything that is not a socket is never
/// removed. The listener removes the file it created when closed, unless the file has since
/// been replaced by someone else; an adopted socket's file belongs to systemd and is kept.
///
/// ```swift
/// let listener = try SocketListener.activated() ?? SocketListener(path: "/run/l10nd/l10nd.sock")
/// ```
package final class SocketListener: Sendable {
    /// The socket's path, when known.
    package let path: String?
    /// Whether the descriptor came from socket activation rather than `bind`.
    package let isAdopted: Bool
    /// The listening descriptor (non-blocking, close-on-exec).
    let descriptor: Int32
    /// Device and inode of the file bound, so `close` removes only our own socket file.
    private let boundFile: (device: UInt64, inode: UInt64)?
    private let isClosed = Mutex(false)
    private let ownsFile = Mutex(true)

    /// Binds and listens at `path`, the file getting `permissions` (default `0660`).
    ///
    /// - Throws: ``SocketError`` with ``SocketError/Code/addressInUse`` if another process
    ///   listens there, ``SocketError/Code/notASocket`` if the path is something else,
    ///   ``SocketError/Code/pathTooLong``, or a system call failure.
    package init(path: String, permissions: UInt32 = 0o660, backlog: Int32 = 512) throws(SocketError) {
        let address = try Self.address(for: path)
        try Self.removeStaleSocket(at: path, address: address)
        let descriptor = try SystemCall.run("socket") {
            socket(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        do {
            try Self.bind(descriptor, to: address, path: path, permissions: permissions)
            try SystemCall.run("listen(\(path))") { listen(descriptor, backlog) }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            boundFile = (UInt64(status.st_dev), UInt64(status.st_ino))
        } else {
            boundFile = nil
        }
        self.path = path
        self.descriptor = descriptor
        self.isAdopted = false
    }

    /// Adopts an already listening descriptor (socket activation). The descriptor is made
    /// non-blocking and close-on-exec; its file is never removed.
    ///
    /// - Throws: ``SocketError`` with ``SocketError/Code/badActivation`` if `descriptor` is
    ///   not a listening stream socket.
    package init(adopting descriptor: Int32, path: String? = nil) throws(SocketError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketError(code: .badActivation, message: "descriptor \(descriptor) is not a socket")
        }
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting != 0 else {
            throw SocketError(code: .badActivation, message: "descriptor \(descriptor) is not a listening socket")
        }
        let flags = try SystemCall.run("fcntl(F_GETFL)") { fcntl(descriptor, F_GETFL) }
        try SystemCall.run("fcntl(F_SETFL)") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        try SystemCall.run("fcntl(F_SETFD)") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        self.path = path
        self.descriptor = descriptor
        self.isAdopted = true
        self.boundFile = nil
    }

    /// The listener systemd passed this process, or `nil` when it was not socket-activated.
    /// Clears the activation variables so children do not inherit them.
    package static func activated() throws(SocketError) -> SocketListener? {
        guard let descriptor = SocketActivation.descriptorsForThisProcess().first else { return nil }
        SocketActivation.unsetEnvironment()
        return try SocketListener(adopting: descriptor)
    }

    deinit {
        close()
    }

    /// Stops listening and removes the socket file this listener created. Idempotent.
    package func close() {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        Glibc.close(descriptor)
        removeSocketFile()
    }

    /// Unlinks the socket file this listener bound, so no client connects to a daemon that
    /// is going away; the descriptor stays open until ``close()``. An adopted socket's file
    /// belongs to systemd and stays.
    func removeSocketFile() {
        guard let path, let boundFile, ownsFile.withLock({ $0 }) else { return }
        var status = stat()
        // Only unlink the file if it is still the one we bound: a newer daemon may own the path.
        if lstat(path, &status) == 0, UInt64(status.st_dev) == boundFile.device,
            UInt64(status.st_ino) == boundFile.inode
        {
            unlink(path)
        }
    }

    /// Leaves the socket file alone from now on, even when closing: it is gone, and a new
    /// file at the path (the replacement's) may have been given the same inode number.
    func disownFile() {
        ownsFile.withLock { $0 = false }
    }

    /// Whether the file this listener bound is still at its path: `false` once someone
    /// removed it or its directory (a tmp cleaner), or put another file there. Always true
    /// for an adopted socket, whose file is systemd's business.
    var isFileInPlace: Bool {
        guard let path, let boundFile else { return true }
        var status = stat()
        return lstat(path, &status) == 0 && UInt64(status.st_dev) == boundFile.device
            && UInt64(status.st_ino) == boundFile.inode
    }

    private static func address(for path: String) throws(SocketError) -> UnixSocketAddress {
        guard !path.hasPrefix("@"), let address = UnixSocketAddress(path) else {
            let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
            throw SocketError(
                code: .pathTooLong,
                message:
                    "socket path \(path) must be absolute, 2 to \(capacity - 1) bytes long, without NUL (it has \(path.utf8.count))"
            )
        }
        return address
    }

    /// Removes what a crashed daemon left at `path`, but only after `connect` proved that
    /// nobody listens there, and never a file that is not a socket.
    private static func removeStaleSocket(at path: String, address: UnixSocketAddress) throws(SocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw SystemCall.error("lstat(\(path))", errno: code)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketError(
                code: .notASocket, message: "\(path) exists and is not a socket; refusing to replace it")
        }
        let probe = try SystemCall.run("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { Glibc.close(probe) }
        do {
            try connect(probe, to: address)
        } catch {
            switch error.errno {
            case ECONNREFUSED?:
                try SystemCall.run("unlink(\(path))") {
                    unlink(path) == 0 || errno == ENOENT ? 0 : -1
                }
                return
            case EAGAIN?:
                // Listening, with a full backlog: in use all the same.
                break
            default:
                throw error
            }
        }
        throw SocketError(code: .addressInUse, message: "another l10nd is already listening on \(path)")
    }

    private static func connect(_ descriptor: Int32, to address: UnixSocketAddress) throws(SocketError) {
        try SystemCall.run("connect") { address.withSockaddr { Glibc.connect(descriptor, $0, $1) } }
    }

    private static func bind(_ descriptor: Int32, to address: UnixSocketAddress, path: String, permissions: UInt32)
        throws(SocketError)
    {
        // bind creates the file with 0777 & ~umask. The umask is process-wide, so it is only
        // tightened (nothing for "other"), never loosened: a file another thread creates in
        // this instant loses only permissions for others, and the socket is never more open
        // than intended before the chmod below sets exactly `permissions`.
        let previousMask = umask(0o007)
        umask(previousMask | 0o007)
        let result = Result { () throws(SocketError) -> Int32 in
            try SystemCall.run("bind(\(path))") { address.withSockaddr { Glibc.bind(descriptor, $0, $1) } }
        }
        umask(previousMask)
        do {
            _ = try result.get()
        } catch  where error.errno == EADDRINUSE {
            throw SocketError(
                code: .addressInUse, errno: EADDRINUSE, message: "another l10nd is already listening on \(path)")
        }
        try SystemCall.run("chmod(\(path))") { chmod(path, mode_t(permissions)) }
    }
}
