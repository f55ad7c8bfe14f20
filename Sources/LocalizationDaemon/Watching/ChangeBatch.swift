/// What changed in the resource directories during one settle window.
///
/// Paths are as reached from the configured roots (through symlinks, not resolved), sorted
/// and without duplicates. A file listed may have been created, rewritten or deleted: read it
/// again, and treat "no such file" as a deletion. A directory listed appeared, vanished or
/// now points elsewhere: re-read everything under it. `fullRescan` means events may have
/// been lost (queue overflow, unknown watch descriptor, an explicit reload): re-read
/// everything. (A watch that could not be added is retried and polled by the watcher, and
/// reported as the directories it finds changed.)
package struct ChangeBatch: Sendable, Hashable, CustomStringConvertible {
    /// Resource files that may have changed.
    package var files: [String]
    /// Directories whose whole contents may have changed.
    package var directories: [String]
    /// Whether everything must be re-read because events may have been lost.
    package var fullRescan: Bool
    /// Why a full rescan was asked for, for the log.
    package var reasons: [String]

    /// Creates a batch; paths are sorted and made unique.
    package init(
        files: some Sequence<String> = [], directories: some Sequence<String> = [], fullRescan: Bool = false,
        reasons: [String] = []
    ) {
        self.files = Array(Set(files)).sorted()
        self.directories = Array(Set(directories)).sorted()
        self.fullRescan = fullRescan
        self.reasons = reasons
    }

    /// Whether the batch reports nothing at all.
    package var isEmpty: Bool { files.isEmpty && directories.isEmpty && !fullRescan }

    /// A one-line summary for logs.
    package var description: String {
        var parts = ["\(files.count) file(s)", "\(directories.count) directory(ies)"]
        if fullRescan { parts.append("full rescan: " + reasons.joined(separator: "; ")) }
        return parts.joined(separator: ", ")
    }
}
