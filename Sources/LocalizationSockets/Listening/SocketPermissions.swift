import Glibc

/// Gives the socket file a group, so that group's members may connect (mode 0660).
package enum SocketPermissions {
    /// Sets `path`'s group to `group`, a name or a number.
    package static func assignGroup(_ group: String, to path: String) throws(SocketError) {
        guard let gid = groupID(group) else {
            throw SocketError(code: .systemCall, message: "socket_group: no group named '\(group)'")
        }
        try SystemCall.run("chown(\(path), group \(group))") { chown(path, uid_t.max, gid) }
    }

    /// The group `group` names: a number as it is (any number is a group to `chown`), a name
    /// as the system's group database has it; nil for a name it does not have.
    package static func groupID(_ group: String) -> UInt32? {
        if let number = UInt32(group) { return number }
        return getgrnam(group)?.pointee.gr_gid
    }
}
