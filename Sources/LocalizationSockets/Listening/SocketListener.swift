import Glibc
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
    /// The listening descriptor's number (non-blocking, close-on-exec), for system calls
    /// until ``close()``.
    package let descriptor: Int32
    /// Device and inode of the file bound, so `close` removes only our own socket file.
    private let boundFile: (device: UInt64, inode: UInt64)?
    /// The listening socket until ``close()`` takes it.
    private let socket: Mutex<FileDescriptor?>
    private let ownsFile = Mutex(true)

    /// Binds and listens at `path`, the file getting `permissions` (default `0660`).
    ///
    /// - Throws: ``SocketError`` with ``SocketError/Code/addressInUse`` if another process
    ///   listens there, ``SocketError/Code/notASocket`` if the path is something else,
    ///   ``SocketError/Code/pathTooLong``, or a system call failure.
    package init(path: String, permissions: UInt32 = 0o660, backlog: Int32 = 512) throws(SocketError) {
        let address = try Self.address(for: path)
        try Self.removeStaleSocket(at: path, address: address)
        let socket = try FileDescriptor(systemCall: "socket") {
            Glibc.socket(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        let descriptor = socket.rawValue
        try Self.bind(descriptor, to: address, path: path, permissions: permissions)
        try SystemCall.run("listen(\(path))") { listen(descriptor, backlog) }
        var status = stat()
        if lstat(path, &status) == 0 {
            boundFile = (UInt64(status.st_dev), UInt64(status.st_ino))
        } else {
            boundFile = nil
        }
        self.path = path
        self.descriptor = descriptor
        self.socket = Mutex(socket)
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
        self.socket = Mutex(FileDescriptor(adopting: descriptor))
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
        guard let socket = socket.withLock({ $0.take() }) else { return }
        socket.close()
        removeSocketFile()
    }

    /// Unlinks the socket file this listener bound, so no client connects to a daemon that
    /// is going away; the descriptor stays open until ``close()``. An adopted socket's file
    /// belongs to systemd and stays.
    package func removeSocketFile() {
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
    package func disownFile() {
        ownsFile.withLock { $0 = false }
    }

    /// Whether the file this listener bound is still at its path: `false` once someone
    /// removed it or its directory (a tmp cleaner), or put another file there. Always true
    /// for an adopted socket, whose file is systemd's business.
    package var isFileInPlace: Bool {
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
        let probe = try FileDescriptor(systemCall: "socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            try connect(probe.rawValue, to: address)
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

    /// The process's umask, read from `/proc/self/status` (Linux 4.7+), which, unlike
    /// `umask(2)`, reads it without setting it; `nil` when it cannot be read.
    static func currentUmask() -> mode_t? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Umask:") else { continue }
            return mode_t(String(text.dropFirst(6).filter { !$0.isWhitespace }), radix: 8)
        }
        return nil
    }

    private static func bind(_ descriptor: Int32, to address: UnixSocketAddress, path: String, permissions: UInt32)
        throws(SocketError)
    {
        // bind creates the file with 0777 & ~umask, and connecting needs write permission.
        // With the usual umask (022, systemd's default) only the owner can connect until the
        // chmod below sets exactly `permissions`, and the umask is left alone. Otherwise it
        // is tightened for the bind. The umask is process-wide: a file another thread creates
        // in that instant loses permissions for others (in the test process, a temporary
        // directory another user's daemon could then not list), hence only when needed.
        let tighten = (Self.currentUmask() ?? 0) & 0o022 != 0o022
        let previousMask = tighten ? umask(0o007) : 0
        if tighten { umask(previousMask | 0o007) }
        let result = Result { () throws(SocketError) -> Int32 in
            try SystemCall.run("bind(\(path))") { address.withSockaddr { Glibc.bind(descriptor, $0, $1) } }
        }
        if tighten { umask(previousMask) }
        do {
            _ = try result.get()
        } catch  where error.errno == EADDRINUSE {
            throw SocketError(
                code: .addressInUse, errno: EADDRINUSE, message: "another l10nd is already listening on \(path)")
        }
        try SystemCall.run("chmod(\(path))") { chmod(path, mode_t(permissions)) }
    }
}
