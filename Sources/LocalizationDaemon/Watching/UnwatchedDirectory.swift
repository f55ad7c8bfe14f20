package import LocalizationCore

/// A directory under a root that the watcher does not watch, and why: for `status`.
package struct UnwatchedDirectory: Sendable, Hashable {
    /// Whether its reason is fixed by renaming or moving it, not by time: never retried.
    package var isSkippedByName: Bool { reason == .notALanguage || reason == .nameNotUTF8 }

    /// The directory, as reached from its root.
    package var path: String
    /// Why it is not watched: the watch's error, or a reason of the watcher's own.
    package var reason: FileSystemWatchError.Code
    /// A sentence for the operator.
    package var message: String
    /// Whether its contents are compared every poll interval instead (it can be listed).
    package var polled: Bool
    /// Whether it is a file skipped for its name (``FileSystemWatchError/Code/nameNotUTF8`` in an `.lproj`, or a
    /// catalog), not a directory: `status` says `"kind":"file"`.
    package var isFile: Bool

    /// Creates a description.
    package init(
        path: String, reason: FileSystemWatchError.Code, message: String, polled: Bool,
        isFile: Bool = false
    ) {
        self.path = path
        self.reason = reason
        self.message = message
        self.polled = polled
        self.isFile = isFile
    }

    /// Describes an entry the scanner skips for its name (``LocalizationCore/SkippedName``):
    /// never polled, as its name, not its contents, keeps it out.
    package init(_ skipped: SkippedName) {
        let reason: FileSystemWatchError.Code =
            switch skipped.reason {
            case .notALanguage: .notALanguage
            case .nameNotUTF8: .nameNotUTF8
            }
        self.init(
            path: skipped.path, reason: reason, message: skipped.message, polled: false, isFile: !skipped.isDirectory)
    }
}
