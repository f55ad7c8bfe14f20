/// A directory under a root that the watcher does not watch, and why: for `status`.
package struct UnwatchedDirectory: Sendable, Hashable {
    /// Why a directory is not watched.
    package enum Reason: String, Sendable, Hashable {
        /// Deeper than ``LocalizationCore/ResourceScanner/maximumDepth`` below its root: not
        /// read either, by the one depth rule.
        case tooDeep = "too_deep"
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

    /// The directory, as reached from its root.
    package var path: String
    /// Why it is not watched.
    package var reason: Reason
    /// A sentence for the operator.
    package var message: String
    /// Whether its contents are compared every poll interval instead (it can be listed).
    package var polled: Bool

    /// Creates a description.
    package init(path: String, reason: Reason, message: String, polled: Bool) {
        self.path = path
        self.reason = reason
        self.message = message
        self.polled = polled
    }
}
