import Foundation

/// Why a resource directory gives no strings: it is not there, it is a file, or nothing under
/// it is a language (no `xx.lproj` folder, no `.xcstrings` file); or why it gives nothing
/// new: it was listed before. Said out loud by the client library, `l10nctl get` and the
/// daemon, instead of every lookup quietly returning its key.
///
/// ```swift
/// for problem in ResourceRootProblem.missing(in: ["/usr/share/myapp/Resources"]) {
///     print(problem)   // resource directory /usr/share/myapp/Resources does not exist …
/// }
/// ```
package enum ResourceRootProblem: Sendable, Hashable, CustomStringConvertible {
    /// The directory does not exist (or a link to it leads nowhere).
    case missing(String)
    /// The path exists but is not a directory (a file).
    case notADirectory(String)
    /// The path cannot be looked at (`EACCES`): a directory on the way denies search
    /// permission to this user, so whether it exists is not known; or it is a directory
    /// this user may not list or enter.
    case permissionDenied(String)
    /// The directory exists but holds no language.
    case noLanguage(String)
    /// The directory was listed before: it is read once, in its first place.
    case duplicate(String)

    /// The directory concerned.
    package var path: String {
        switch self {
        case .missing(let path), .notADirectory(let path), .permissionDenied(let path), .noLanguage(let path),
            .duplicate(let path):
            path
        }
    }

    /// Whether the root still serves (a duplicate does, in its first place): a warning where
    /// the others are errors.
    package var isWarning: Bool {
        if case .duplicate = self { return true }
        return false
    }

    /// One sentence naming the path and the fix.
    package var description: String {
        switch self {
        case .missing(let path):
            "resource directory \(path) does not exist (give the directory that holds the xx.lproj folders)"
        case .notADirectory(let path):
            "resource directory \(path) is not a directory (give the directory that holds the xx.lproj folders)"
        case .permissionDenied(let path):
            "resource directory \(path) cannot be reached: permission denied (\(Self.permissionHint))"
        case .duplicate(let path):
            "resource directory \(path) is listed twice: it is read once, where it is first listed"
        case .noLanguage(let path):
            "resource directory \(path) holds no language: no xx.lproj folder or .xcstrings file under it"
        }
    }

    /// How to give a process a root it may not reach, for every message that says so.
    package static let permissionHint =
        "the user it runs as needs search (x) permission on every directory above it and read permission on it; "
        + "with systemd's DynamicUser=yes a home directory of mode 0700 is out of reach"

    /// The roots among `roots` that are not directories — missing, unreachable, or files:
    /// one `stat` each.
    package static func missing(in roots: [String]) -> [ResourceRootProblem] {
        roots.compactMap(notThere)
    }

    /// The roots of `resources` that exist but gave it no file, from what it loaded, and those
    /// listed twice (which give nothing of their own). (Missing ones are ``missing(in:)``'s.)
    package static func noLanguage(in resources: ResourceSet) -> [ResourceRootProblem] {
        let used = Set(resources.files.map(\.rootIndex))
        let repeated = repeatedIndices(resources.roots)
        return resources.roots.enumerated().compactMap { index, root in
            if repeated.contains(index) { return .duplicate(root) }
            return !used.contains(index) && isDirectory(root) ? .noLanguage(root) : nil
        }
    }

    /// Every problem of `roots`, scanning each that exists (for a one-shot check, such as
    /// `l10nctl get --resources`; the library reads it off the loaded resources instead).
    package static func check(_ roots: [String]) -> [ResourceRootProblem] {
        let repeated = repeatedIndices(roots)
        return roots.enumerated().compactMap { index, root in
            if repeated.contains(index) { return .duplicate(root) }
            if let problem = notThere(root) { return problem }
            return ResourceScanner.scan(directory: root, rootIndex: 0).isEmpty ? .noLanguage(root) : nil
        }
    }

    /// The positions in `roots` of paths listed earlier (`/srv/l10n/` repeats `/srv/l10n`).
    package static func repeatedIndices(_ roots: [String]) -> Set<Int> {
        var seen: Set<String> = []
        return Set(
            roots.enumerated().compactMap { index, root in
                seen.insert(URL(fileURLWithPath: root).standardizedFileURL.path).inserted ? nil : index
            })
    }

    /// Why `root` is not a directory to read, or nil when it is one.
    private static func notThere(_ root: String) -> ResourceRootProblem? {
        var info = stat()
        guard stat(root, &info) == 0 else {
            // Not "does not exist": it may well exist, behind a directory this user may not enter.
            return errno == EACCES ? .permissionDenied(root) : .missing(root)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .notADirectory(root) }
        // There, but this user may not list or enter it: the same fix as a directory above
        // it that may not be entered, not "holds no language".
        return access(root, R_OK | X_OK) != 0 && errno == EACCES ? .permissionDenied(root) : nil
    }

    /// Whether `path` is a directory (through symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
