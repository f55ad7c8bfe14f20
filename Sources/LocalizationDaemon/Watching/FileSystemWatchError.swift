/// Why a directory could not be watched.
///
/// `code` is stable for programs; `message` is for the person reading the log and says
/// what to do, e.g. which sysctl to raise when the kernel's watch limit is reached.
package struct FileSystemWatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    package enum Code: String, Sendable, Hashable {
        /// The directory does not exist (any more). Harmless: it vanished while being scanned.
        case notFound = "not_found"
        /// The path is not a directory (`ENOTDIR`).
        case notDirectory = "not_directory"
        /// Permission denied (`EACCES`).
        case permissionDenied = "permission_denied"
        /// The per-user inotify watch limit is reached (`ENOSPC`): `fs.inotify.max_user_watches`.
        case watchLimitReached = "watch_limit_reached"
        /// The process is out of file descriptors (`EMFILE`, `ENFILE`).
        case tooManyOpenFiles = "too_many_open_files"
        /// The inotify instance could not be created or used at all.
        case unavailable = "unavailable"
        /// The event source is not running.
        case notRunning = "not_running"
        /// Anything else the kernel said; the message carries the errno text.
        case other = "other"
    }

    /// The kind of failure.
    package var code: Code
    /// The directory concerned, if any.
    package var path: String?
    /// A sentence a person can act on.
    package var message: String

    /// Creates an error.
    package init(code: Code, path: String?, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// Whether the directory is there but not watched, so it must be retried (and polled).
    ///
    /// A directory that vanished before it could be watched is not such a case: its parent's
    /// delete event already tells the story. A failed watch never asks for a full rescan:
    /// the rescan would fail the same way and ask for another.
    package var leavesDirectoryUnwatched: Bool {
        switch code {
        case .notFound, .notDirectory: false
        default: true
        }
    }

    /// The message.
    package var description: String { message }
}
