import Foundation

/// Finds resource files under root directories: every `*.lproj` at most
/// ``maximumDepth`` directories below a root, and every `*.xcstrings` in the directories
/// on the way there.
///
/// Hidden entries (a leading `.`) are skipped: editors' swap files, and Kubernetes' `..data`
/// and `..2026_…` directories, whose content is reached once through the visible
/// `ja.lproj -> ..data/ja.lproj` links rather than twice. Symbolic links are followed, but a
/// directory already visited (a link loop) is not entered again. Which directories are
/// entered is decided by ``entersSubdirectories(of:atDepth:)``, the one rule the daemon's
/// watcher follows too, so what is read is what is watched.
public enum ResourceScanner {
    /// Directories deeper than this below a root are neither read nor watched.
    ///
    /// A root is at depth 0, its subdirectories at depth 1. An `.lproj` at depth 32 is read;
    /// a directory at depth 33 is not entered, and the daemon lists it in `status`.
    public static let maximumDepth = 32

    /// Whether the subdirectories of `directory`, which lies `depth` levels below its root,
    /// are entered: not below an `.lproj` (Apple's bundles never look deeper) and not
    /// beyond ``maximumDepth``.
    package static func entersSubdirectories(of directory: String, atDepth depth: Int) -> Bool {
        !directory.hasSuffix(".lproj") && depth < maximumDepth
    }

    /// The depth of `path` below `root` (0 for the root itself), counting path components.
    package static func depth(of path: String, below root: String) -> Int {
        guard path.count > root.count else { return 0 }
        return path.dropFirst(root.count).split(separator: "/").count
    }

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
        survey(directory: directory, rootIndex: rootIndex, confinedTo: allowed).files
    }

    /// What a scan of `directory` (itself `depth` levels below its root) found: the
    /// resource files, the directories that exist but could not be listed, and the entries
    /// skipped for their names (``SkippedName``).
    ///
    /// A directory that cannot be listed (permission denied, out of descriptors) is not an
    /// empty one: whoever keeps tables from it must keep them until it can be listed again.
    public static func survey(
        directory: String, depth: Int = 0, rootIndex: Int, confinedTo allowed: [String]? = nil
    ) -> ResourceSurvey {
        var visited = Set<String>()
        var survey = ResourceSurvey()
        let confinement = allowed.map { $0.map(realPath) }
        // Named itself (`lint qaa-x-26.lproj`), such a folder is as skipped as when found.
        if let skipped = SkippedName.folder(directory, named: (directory as NSString).lastPathComponent) {
            survey.skipped.append(skipped)
            return survey
        }
        walk(directory, depth: depth, rootIndex: rootIndex, confinement: confinement, visited: &visited, into: &survey)
        survey.files.sort { $0.path < $1.path }
        survey.skipped.sort { $0.displayPath < $1.displayPath }
        return survey
    }

    /// Whether `path`, with every link resolved, lies inside one of `roots` (already real paths).
    package static func isInside(_ path: String, realRoots roots: [String]) -> Bool {
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
        visited: inout Set<String>, into survey: inout ResourceSurvey
    ) {
        guard depth <= maximumDepth, visited.insert(realPath(directory)).inserted else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            // Gone meanwhile is empty; there but unlistable is unknown, not empty.
            if FileManager.default.fileExists(atPath: directory) { survey.unlistable.append(directory) }
            return
        }
        let descend = entersSubdirectories(of: directory, atDepth: depth)
        // A name Foundation could only decode with U+FFFD names nothing on disk: said, not dropped.
        survey.skipped += SkippedName.undecodable(in: directory, names: names, entersSubdirectories: descend)
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
                survey.files.append(file)
            } else if isDirectory.boolValue && descend {
                // Its files would be classified as no resource one by one, and dropped unsaid.
                if let skipped = SkippedName.folder(path, named: name) {
                    survey.skipped.append(skipped)
                    continue
                }
                walk(
                    path, depth: depth + 1, rootIndex: rootIndex, confinement: confinement, visited: &visited,
                    into: &survey)
            }
        }
    }
}
