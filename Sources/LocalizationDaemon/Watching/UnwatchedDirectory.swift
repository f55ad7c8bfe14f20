/// A directory under a root that the watcher does not watch, and why: for `status`.
package struct UnwatchedDirectory: Sendable, Hashable {
    /// Why a directory is not watched.
    package enum Reason: String, Sendable, Hashable {
        /// Deeper than ``LocalizationCore/ResourceScanner/maximumDepth`` below its root: not
        /// read either, by the one depth rule.
        case tooDeep = "too_deep"
        /// An `.lproj` whose name is no language tag the daemon serves (a private-use
        /// `qaa-x-26`, a newline, a typo): its files are neither read nor watched.
        case notALanguage = "not_a_language"
        /// A name that is not UTF-8: it cannot be told apart from others that decode the
        /// same, so it is neither read nor watched. Renaming it fixes it.
        case nameNotUTF8 = "name_not_utf8"
        /// `inotify_add_watch` or listing it said `EACCES`. Retried with backoff.
        case permissionDenied = "permission_denied"
        /// `inotify_add_watch` said `ENOSPC`: `fs.inotify.max_user_watches` is reached.
        /// Polled, and retried with backoff.
        case watchLimitReached = "watch_limit_reached"
        /// Listing it failed for want of descriptors (`EMFILE`, `ENFILE`). Retried with backoff.
        case descriptorsExhausted = "descriptors_exhausted"
        /// Another error; the message says which. Polled, and retried with backoff.
        case other = "other"
    }

    /// Whether its reason is fixed by renaming or moving it, not by time: never retried.
    package var isSkippedByName: Bool { reason == .notALanguage || reason == .nameNotUTF8 }

    /// The directory, as reached from its root.
    package var path: String
    /// Why it is not watched.
    package var reason: Reason
    /// A sentence for the operator.
    package var message: String
    /// Whether its contents are compared every poll interval instead (it can be listed).
    package var polled: Bool
    /// Whether it is a file skipped for its name (``Reason/nameNotUTF8`` in an `.lproj`, or a
    /// catalog), not a directory: `status` says `"kind":"file"`.
    package var isFile: Bool

    /// Creates a description.
    package init(path: String, reason: Reason, message: String, polled: Bool, isFile: Bool = false) {
        self.path = path
        self.reason = reason
        self.message = message
        self.polled = polled
        self.isFile = isFile
    }
}
