import Foundation

/// Finds resource files under root directories: every `*.lproj` at any depth and every
/// `*.xcstrings`.
///
/// Hidden entries (a leading `.`) are skipped: editors' swap files, and Kubernetes'
/// `..data` and `..2026_…` directories, whose content is reached once through the visible
/// `ja.lproj -> ..data/ja.lproj` links rather than twice. Symbolic links are followed, but a
/// directory already visited (a link loop) is not entered again, and depth is bounded.
public enum ResourceScanner {
    /// Directories deeper than this below a root are not entered.
    public static let maximumDepth = 32

    /// Every resource file under `roots`, each tagged with the index of its root.
    ///
    /// With `confinedTo`, a symbolic link whose target lies outside every one of those
    /// directories is not followed: the daemon reads only what its roots hold.
    public static func scan(roots: [String], confinedTo allowed: [String]? = nil) -> [ResourceFile] {
        roots.enumerated().flatMap { index, root in scan(directory: root, rootIndex: index, confinedTo: allowed) }
    }

    /// Every resource file under `directory`, tagged with `rootIndex`, optionally confined
    /// as ``scan(roots:confinedTo:)`` describes.
    public static func scan(directory: String, rootIndex: Int, confinedTo allowed: [String]? = nil) -> [ResourceFile] {
        var visited = Set<String>()
        var found: [ResourceFile] = []
        let confinement = allowed.map { $0.map(realPath) }
        walk(directory, depth: 0, rootIndex: rootIndex, confinement: confinement, visited: &visited, found: &found)
        return found.sorted { $0.path < $1.path }
    }

    /// Whether `path`, with every link resolved, lies inside one of `roots` (already real paths).
    public static func isInside(_ path: String, realRoots roots: [String]) -> Bool {
        let real = realPath(path)
        return roots.contains { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    /// `path` with every symbolic link resolved.
    static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Reads and parses one file.
    ///
    /// - Throws: ``ResourceParseError`` for a file that cannot be read or parsed.
    public static func load(
        _ file: ResourceFile, maximumBytes: Int = ResourceFileReader.defaultMaximumBytes
    ) throws(ResourceParseError) -> ParsedResource {
        try read(file, maximumBytes: maximumBytes).content
    }

    /// ``load(_:maximumBytes:)``, with the entries the file had to leave out or serve with
    /// a stand-in (``ParsedResource/read(_:kind:file:)``).
    public static func read(
        _ file: ResourceFile, maximumBytes: Int = ResourceFileReader.defaultMaximumBytes
    ) throws(ResourceParseError) -> (content: ParsedResource, problems: [ResourceParseError]) {
        let bytes = try ResourceFileReader.bytes(of: file.path, maximumBytes: maximumBytes).get()
        return try ParsedResource.read(bytes, kind: file.kind, file: file.path)
    }

    private static func walk(
        _ directory: String, depth: Int, rootIndex: Int, confinement: [String]?,
        visited: inout Set<String>, found: inout [ResourceFile]
    ) {
        guard depth <= maximumDepth,
            visited.insert(realPath(directory)).inserted,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return }
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
            guard exists || isLink else { continue }
            if let confinement, !isInside(path, realRoots: confinement) { continue }
            if let file = ResourceFile(path: path, rootIndex: rootIndex) {
                // Named like a table, it is one even when it is no readable file (a directory,
                // a link to nowhere or in a loop): loading it reports why, where skipping it
                // would drop the table without a word.
                found.append(file)
            } else if isDirectory.boolValue {
                walk(
                    path, depth: depth + 1, rootIndex: rootIndex, confinement: confinement, visited: &visited,
                    found: &found)
            }
        }
    }
}
