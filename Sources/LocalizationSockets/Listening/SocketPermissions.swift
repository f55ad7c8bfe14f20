import Glibc

/// Gives the socket file a group, so that group's members may connect (mode 0660).
package enum SocketPermissions {
    /// Sets `path`'s group to `group`, a name or a number.
    package static func assignGroup(_ group: String, to path: String) throws(SocketError) {
        let gid: gid_t
        if let number = gid_t(group) {
            gid = number
        } else if let entry = getgrnam(group) {
            gid = entry.pointee.gr_gid
        } else {
            throw SocketError(code: .systemCall, message: "socket_group: no group named '\(group)'")
        }
        try SystemCall.run("chown(\(path), group \(group))") { chown(path, uid_t.max, gid) }
    }
}
