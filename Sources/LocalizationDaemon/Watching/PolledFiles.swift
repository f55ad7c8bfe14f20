#if canImport(Glibc)
    import Glibc
#endif

/// Resource files whose edits inotify may not report on their directory, stat-ed on a timer.
///
/// inotify reports a write on the directory the write went through, and nowhere else:
/// - a file **hard-linked** into two `.lproj` folders (or with a link outside every root) and
///   saved in place changes under every name, yet only the directory written through hears
///   of it;
/// - a file **mounted on its own** (`docker -v file:file`, a Kubernetes `subPath`, `mount
///   --bind file file`) is edited at its source, which no watch of ours is on.
///
/// Every resource file the watcher reports passes through ``note(_:)``: one whose link count
/// is above one, or that is a mount point, is remembered with its (device, inode, size,
/// mtime, ctime); any other is forgotten. A reported path brings the other names of its
/// inode with it, and ``poll(isBeingWritten:)`` compares each remembered file with what it
/// was, so an edit made through a path nobody watches is read within a poll interval. Only
/// such files are polled: on a tree without links or file mounts the set is empty and no
/// 1 s timer runs.
///
/// A file gaining its second link from **outside** every root is reported by nothing: `link()`
/// raises `IN_ATTRIB` only on a watch on the file itself (the kernel's `fsnotify_link_count`),
/// and `IN_CREATE` in the directory of the new name, which no watch of ours is on. So every
/// other noted file (one link) is remembered too, and ``sweep()`` stats them all every
/// ``sweepInterval``: one whose link count rose is polled from then on, and reported, since
/// it may have been edited through the new name already.
struct PolledFiles {
    /// How often the files are stat-ed, while there are any.
    static let pollInterval: Duration = .seconds(1)
    /// How often the files with one link are stat-ed for a new link: slower than the poll,
    /// since it stats every resource file (under 2 ms for iina's 1,958, docs/RELIABILITY.md).
    static let sweepInterval: Duration = .seconds(5)

    private struct Inode: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// What a poll compares: an edit in place changes the size or the times, a replacement
    /// of the source the inode.
    private struct Signature: Equatable {
        var inode: Inode
        var size: Int64
        var modified: timespec
        var changed: timespec

        static func == (a: Self, b: Self) -> Bool {
            a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    private var signatures: [String: Signature] = [:]
    private var pathsByInode: [Inode: Set<String>] = [:]
    /// The noted resource files with one link and no mount of their own, which ``sweep()`` looks at.
    private var singleLinked: Set<String> = []
    /// The mount points that are not directories (files mounted on their own), as real paths.
    private var mountedFiles: Set<String> = []

    /// Whether no file is polled (and no timer is needed).
    var isEmpty: Bool { signatures.isEmpty }

    /// How many files are polled.
    var count: Int { signatures.count }

    /// Whether no file with one link is known (and no sweep is needed).
    var hasNothingToSweep: Bool { singleLinked.isEmpty }

    /// Takes the mount table's mount points: those that are resource files are polled when
    /// noted. Only points named like one are `stat`ed: a host's other mounts (an NFS share
    /// that hangs) must not hold up the watcher.
    mutating func updateMounts(_ points: some Sequence<String>) {
        mountedFiles = Set(
            points.filter { point in
                guard EditorTempFiles.isResourceFile(String(point.split(separator: "/").last ?? "")) else {
                    return false
                }
                var info = stat()
                return stat(point, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
            })
    }

    /// Looks at `path`, a resource file just reported or found: starts or stops polling it
    /// as it now is, and returns the other remembered names of its inode (hard links), which
    /// changed with it.
    mutating func note(_ path: String) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            forget(path)
            singleLinked.remove(path)
            return []
        }
        guard info.st_nlink > 1 || isMountedOnItsOwn(path) else {
            forget(path)
            singleLinked.insert(path)
            return []
        }
        singleLinked.remove(path)
        let signature = Self.signature(info)
        if let old = signatures[path], old.inode != signature.inode { forget(path) }
        signatures[path] = signature
        pathsByInode[signature.inode, default: []].insert(path)
        return pathsByInode[signature.inode, default: []].filter { $0 != path }.sorted()
    }

    /// Stats every polled file; returns those that changed since last time (and the other
    /// names of their inodes), or vanished. An inode one of whose names is being written
    /// (`isBeingWritten`) is left for a later poll: its close will be reported anyway.
    mutating func poll(isBeingWritten: (String) -> Bool) -> [String] {
        var changed: Set<String> = []
        // A copy: `note` and `forget` change the dictionary underway.
        for (path, old) in signatures {
            var info = stat()
            guard stat(path, &info) == 0 else {
                forget(path)
                changed.insert(path)
                continue
            }
            let new = Self.signature(info)
            guard new != old else { continue }
            let names = pathsByInode[old.inode, default: []].union([path])
            if names.contains(where: isBeingWritten) { continue }
            changed.formUnion(names)
            for name in names { _ = note(name) }
        }
        return changed.sorted()
    }

    /// Stats every file with one link; returns those that now have more (a link made outside
    /// every root, which no event reports), polled from now on, with the other names of
    /// their inodes. A file gone is dropped: its directory's watch reports that.
    mutating func sweep() -> [String] {
        var linked: Set<String> = []
        // A copy: `note` changes the set underway.
        for path in singleLinked {
            var info = stat()
            guard stat(path, &info) == 0 else {
                singleLinked.remove(path)
                continue
            }
            guard info.st_nlink > 1 else { continue }
            linked.insert(path)
            linked.formUnion(note(path))
        }
        return linked.sorted()
    }

    /// Stops polling and sweeping every file at or below `directory` (deleted, moved away,
    /// unmounted).
    mutating func forget(atOrBelow directory: String) {
        let prefix = directory + "/"
        for path in signatures.keys where path == directory || path.hasPrefix(prefix) { forget(path) }
        singleLinked = singleLinked.filter { $0 != directory && !$0.hasPrefix(prefix) }
    }

    /// Stops polling and sweeping anything.
    mutating func removeAll() {
        signatures = [:]
        pathsByInode = [:]
        singleLinked = []
    }

    private mutating func forget(_ path: String) {
        guard let old = signatures.removeValue(forKey: path) else { return }
        pathsByInode[old.inode]?.remove(path)
        if pathsByInode[old.inode]?.isEmpty ?? false { pathsByInode[old.inode] = nil }
    }

    /// Whether `path` is a mount point of its own: the mount table names files by their real
    /// path, which is resolved only when a mounted file has this file's name.
    private func isMountedOnItsOwn(_ path: String) -> Bool {
        guard !mountedFiles.isEmpty else { return false }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard mountedFiles.contains(where: { $0.hasSuffix("/" + name) }) else { return false }
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        return mountedFiles.contains(String(cString: resolved))
    }

    private static func signature(_ info: stat) -> Signature {
        Signature(
            inode: Inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), size: Int64(info.st_size),
            modified: info.st_mtim, changed: info.st_ctim)
    }
}
