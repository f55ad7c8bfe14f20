import Foundation
import Glibc
import LocalizationSockets

/// The fix for a socket the daemon may not create (`bind(…) failed: Permission denied`):
/// which directory, which user, and the ways to give one to the other. Appended to the
/// start-up error, which alone names neither.
///
/// ```swift
/// logger.error("cannot start: \(error)" + SocketDirectoryAdvice.advice(for: error, socketPath: path))
/// ```
package enum SocketDirectoryAdvice {
    /// `; the socket directory … is not writable by user …: …`, or "" when `error` is not a
    /// permission failure.
    package static func advice(for error: any Error, socketPath: String) -> String {
        guard let error = error as? SocketError, error.errno == EACCES || error.errno == EPERM else { return "" }
        var directory = (socketPath as NSString).deletingLastPathComponent
        // A directory still to be created is created in its parent: that one must be writable.
        if !FileManager.default.fileExists(atPath: directory) {
            directory = (directory as NSString).deletingLastPathComponent
        }
        let uid = geteuid()
        let name = userName(uid)
        return "; the socket directory \(directory) is not writable by the user l10nd runs as, "
            + "\(name.map { "\($0) (uid \(uid))" } ?? "uid \(uid)"): make it that user's (chown \(name ?? String(uid)) \(directory)) or give a group it is in write permission (chmod g+w), let "
            + "systemd make it (RuntimeDirectory=l10nd in the service, or the l10nd.socket unit, which binds the "
            + "socket itself), or set socket = to a path in a directory the user owns"
    }

    /// The user's name; nil for a user with none.
    private static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
