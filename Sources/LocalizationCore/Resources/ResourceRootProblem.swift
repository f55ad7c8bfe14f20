import Foundation

/// Why a resource directory gives no strings: it is not there, or nothing under it is a
/// language (no `xx.lproj` folder, no `.xcstrings` file). Said out loud by the client
/// library, `l10nctl get` and the daemon, instead of every lookup quietly returning its key.
///
/// ```swift
/// for problem in ResourceRootProblem.missing(in: ["/usr/share/myapp/Resources"]) {
///     print(problem)   // resource directory /usr/share/myapp/Resources does not exist …
/// }
/// ```
package enum ResourceRootProblem: Sendable, Hashable, CustomStringConvertible {
    /// The directory does not exist (or is not a directory).
    case missing(String)
    /// The directory exists but holds no language.
    case noLanguage(String)

    /// The directory concerned.
    package var path: String {
        switch self {
        case .missing(let path), .noLanguage(let path): path
        }
    }

    /// One sentence naming the path and the fix.
    package var description: String {
        switch self {
        case .missing(let path):
            "resource directory \(path) does not exist (give the directory that holds the xx.lproj folders)"
        case .noLanguage(let path):
            "resource directory \(path) holds no language: no xx.lproj folder or .xcstrings file under it"
        }
    }

    /// The roots among `roots` that are not directories: one `stat` each.
    package static func missing(in roots: [String]) -> [ResourceRootProblem] {
        roots.filter { !isDirectory($0) }.map(ResourceRootProblem.missing)
    }

    /// The roots of `resources` that exist but gave it no file, from what it loaded.
    /// (Missing ones are ``missing(in:)``'s.)
    package static func noLanguage(in resources: ResourceSet) -> [ResourceRootProblem] {
        let used = Set(resources.files.map(\.rootIndex))
        return resources.roots.enumerated()
            .filter { !used.contains($0.offset) && isDirectory($0.element) }
            .map { .noLanguage($0.element) }
    }

    /// Every problem of `roots`, scanning each that exists (for a one-shot check, such as
    /// `l10nctl get --resources`; the library reads it off the loaded resources instead).
    package static func check(_ roots: [String]) -> [ResourceRootProblem] {
        roots.compactMap { root in
            if !isDirectory(root) { return .missing(root) }
            return ResourceScanner.scan(directory: root, rootIndex: 0).isEmpty ? .noLanguage(root) : nil
        }
    }

    /// Whether `path` is a directory (through symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
