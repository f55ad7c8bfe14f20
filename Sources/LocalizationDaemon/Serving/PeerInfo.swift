import Glibc
import LocalizationSockets

/// Who is on the other end of a connection, as the kernel vouches for it (`SO_PEERCRED`):
/// the credentials the peer had when it called `connect`.
package struct PeerInfo: Sendable, Hashable {
    /// The peer's process id.
    package var pid: Int32
    /// The peer's effective user id.
    package var uid: UInt32
    /// The peer's effective group id.
    package var gid: UInt32

    /// Creates peer credentials.
    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads the credentials of the peer connected to `socket`; `nil` if the kernel will
    /// not say (not a Unix socket).
    static func of(socket: Int32) -> PeerInfo? {
        // Glibc hides `struct ucred` behind _GNU_SOURCE; its layout is pid_t, uid_t, gid_t.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        let result = try? SystemCall.run("getsockopt(SO_PEERCRED)") {
            getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        guard result != nil, Int(length) == MemoryLayout.size(ofValue: credentials) else { return nil }
        return PeerInfo(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}
