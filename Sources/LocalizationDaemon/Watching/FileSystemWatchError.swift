/// Why a directory could not be watched.
///
/// `code` is stable for programs (and is the reason an ``UnwatchedDirectory`` gives in
/// `status`); `message` is for the person reading the log and says what to do, e.g. which
/// sysctl to raise when the kernel's watch limit is reached.
package struct FileSystemWatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, or why a directory the watcher skips is not watched.
    package enum Code: String, Sendable, Hashable {
        /// The directory does not exist (any more). Harmless: it vanished while being scanned.
        case notFound = "not_found"
        /// The path is not a directory (`ENOTDIR`).
        case notDirectory = "not_directory"
        /// Permission denied (`EACCES`) to watch or list it. Retried with backoff.
        case permissionDenied = "permission_denied"
        /// The per-user inotify watch limit is reached (`ENOSPC`): `fs.inotify.max_user_watches`.
        /// Polled, and retried with backoff.
        case watchLimitReached = "watch_limit_reached"
        /// The process is out of file descriptors (`EMFILE`, `ENFILE`). Retried with backoff.
        case descriptorsExhausted = "descriptors_exhausted"
        /// Deeper than ``LocalizationCore/ResourceScanner/maximumDepth`` below its root: not
        /// read either, by the one depth rule.
        case tooDeep = "too_deep"
        /// An `.lproj` whose name is no language tag the daemon serves (a private-use
        /// `qaa-x-26`, a newline, a typo): its files are neither read nor watched.
        case notALanguage = "not_a_language"
        /// A name that is not UTF-8: it cannot be told apart from others that decode the
        /// same, so it is neither read nor watched. Renaming it fixes it.
        case nameNotUTF8 = "name_not_utf8"
        /// The inotify instance could not be created or used at all.
        case unavailable = "unavailable"
        /// The event source is not running.
        case notRunning = "not_running"
        /// Anything else the kernel said; the message carries the errno text. Polled, and
        /// retried with backoff.
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
