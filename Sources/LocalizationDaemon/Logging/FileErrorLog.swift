import LocalizationCore

/// The log lines for the files a load or a refresh could not read: one a file, except that
/// files that fail alike to be read at all (`chmod 000` on a whole root: the same
/// "cannot be read: Permission denied" for each of its 2,000 files) make one line for the
/// burst, naming the directory they share, how many, and the first. `status` still lists
/// each file.
///
/// ```swift
/// FileErrorLog.lines(for: errors, kept: true)
/// // ["/srv/app: cannot be read: Permission denied, 1960 files under it (first /srv/app/de.lproj/A.strings); …"]
/// ```
enum FileErrorLog {
    /// The lines for `errors`, in file order; `kept` says the last good versions are still
    /// served (a refresh), not nothing yet (the first load), except for the files in
    /// `unserved`, which have none (a root switched away and back): said so, not "still served".
    static func lines(for errors: [ResourceParseError], kept: Bool, unserved: Set<String> = []) -> [String] {
        func keptNote(_ file: String) -> String {
            guard kept else { return "" }
            return unserved.contains(file)
                ? " (it has no last good version: nothing of it is served)" : " (the last good version is still served)"
        }
        let sorted = errors.sorted { ($0.location.file ?? "") < ($1.location.file ?? "") }
        var alike: [String: [String]] = [:]
        for error in sorted where isWholeFileFailure(error) {
            alike[error.message, default: []].append(error.location.file ?? "")
        }
        var lines: [String] = []
        for error in sorted {
            guard isWholeFileFailure(error), let files = alike[error.message], files.count > 1 else {
                lines.append("\(error)\(keptNote(error.location.file ?? ""))")
                continue
            }
            // Said once, at the first of its files.
            guard files.first == error.location.file ?? "" else { continue }
            lines.append(
                "\(sharedDirectory(of: files)): \(error.message), \(files.count) files under it (first \(files[0])"
                    + (kept && unserved.isDisjoint(with: files) ? "; the last good versions are still served" : "")
                    + "; l10nctl status lists each)")
        }
        return lines
    }

    /// Whether `error` is a file that could not be read at all (not a parse error, whose
    /// message and place are the file's own).
    private static func isWholeFileFailure(_ error: ResourceParseError) -> Bool {
        error.location.file != nil && error.message.hasPrefix(unreadablePrefix) && error.location.line == 1
            && error.location.column == 1
    }

    /// What every ``ResourceParseError/unreadable(_:reason:)`` message starts with.
    private static let unreadablePrefix = ResourceParseError.unreadable("", reason: "").message

    /// The deepest directory holding every one of `files`.
    private static func sharedDirectory(of files: [String]) -> String {
        var shared = files[0].split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for file in files.dropFirst() {
            let parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            shared = shared.prefix(zip(shared, parts).prefix { $0 == $1 }.count)
        }
        let path = shared.joined(separator: "/")
        return path.isEmpty ? "/" : path
    }
}
