import Glibc

/// The directory a socket path lives in: created when missing, refused when someone else
/// owns it (a `/tmp/l10nd-1000` planted by another user must not receive our socket).
package enum SocketDirectory {
    /// Makes sure the directory of `socketPath` exists and belongs to this user (or root).
    package static func prepare(forSocketAt socketPath: String) throws(SocketError) {
        guard let slash = socketPath.lastIndex(of: "/"), slash != socketPath.startIndex else { return }
        let directory = String(socketPath[..<slash])
        var info = stat()
        if lstat(directory, &info) != 0 {
            try createWithParents(directory)
            guard lstat(directory, &info) == 0 else {
                throw SystemCall.error("lstat(\(directory))", errno: errno)
            }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SocketError(code: .notASocket, message: "the socket's directory \(directory) is not a directory")
        }
        let me = getuid()
        guard info.st_uid == me || info.st_uid == 0 else {
            throw SocketError(
                code: .systemCall,
                message:
                    "the socket's directory \(directory) belongs to user \(info.st_uid), not to this user (\(me)); remove it or choose another --socket"
            )
        }
    }

    private static func createWithParents(_ directory: String) throws(SocketError) {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                throw SystemCall.error("mkdir(\(path))", errno: errno)
            }
        }
    }
}
