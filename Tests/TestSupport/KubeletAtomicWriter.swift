public import Foundation
import Glibc

/// The kubelet's atomic writer, re-enacted on real files: how a ConfigMap, Secret or
/// projected volume is updated in a running pod.
///
/// The steps and their order are those of `AtomicWriter.Write` in Kubernetes'
/// `pkg/volume/util/atomic_writer.go` (the version with 12 steps, which links the
/// user-visible names after the swap):
///
/// 1. the payload's paths are checked (relative, no `..` element);
/// 2. the current timestamped directory is read from the `..data` link;
/// 3. the old version is walked for paths the new payload no longer has;
/// 4. nothing happens when every file is unchanged and nothing is to be removed;
/// 5. a new `..YYYY_MM_DD_HH_MM_SS.NNNN` directory is made (mode 0755);
/// 6. the payload is written into it (each file's mode set exactly);
/// 7. (ownership: not needed here);
/// 8. a link `..data_tmp` to the new directory is made;
/// 9. `..data_tmp` is renamed over `..data` — the one atomic step;
/// 10. a link per first path component (`ja.lproj -> ..data/ja.lproj`) is made where missing;
/// 11. top-level names the payload dropped are removed;
/// 12. the previous timestamped directory is removed, at once.
///
/// Nothing here is faked: only the kubelet itself is missing.
public struct KubeletAtomicWriter {
    /// The volume's directory (what the pod mounts).
    public let targetDirectory: String

    /// A writer for `targetDirectory`, which must exist.
    public init(targetDirectory: String) {
        self.targetDirectory = targetDirectory
    }

    /// A failed step, named as the kubelet logs it.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// Projects `payload` (relative path → bytes) into the volume, as a ConfigMap update does;
    /// `mode` is the volume's `defaultMode`. Returns false when nothing needed writing.
    @discardableResult
    public func write(_ payload: [String: Data], mode: mode_t = 0o644) throws -> Bool {
        // (1)
        for path in payload.keys {
            let items = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.isEmpty, !path.hasPrefix("/"), !items.contains(".."), !(items[0].hasPrefix("..")) else {
                throw Failure(description: "invalid path: \(path)")
            }
        }
        // (2)
        let dataLink = targetDirectory + "/..data"
        let oldName = try? FileManager.default.destinationOfSymbolicLink(atPath: dataLink)
        let oldPath = oldName.map { targetDirectory + "/" + $0 }
        var pathsToRemove: Set<String> = []
        if let oldPath {
            // (3)
            pathsToRemove = Self.relativePaths(under: oldPath).subtracting(Self.pathsAndParents(of: payload.keys))
            // (4)
            let changed = payload.contains { path, data in
                FileManager.default.contents(atPath: oldPath + "/" + path) != data
            }
            if !changed && pathsToRemove.isEmpty { return false }
        }
        // (5)
        let stamp = Self.timestamp()
        var template = Array((targetDirectory + "/.." + stamp + ".XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp: errno \(errno)") }
        let newPath = String(cString: made)
        let newName = (newPath as NSString).lastPathComponent
        chmod(newPath, 0o755)
        // (6)
        for (path, data) in payload {
            let full = newPath + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
            chmod(full, mode)
        }
        // (8)
        let temporaryLink = targetDirectory + "/..data_tmp"
        guard symlink(newName, temporaryLink) == 0 else {
            throw Failure(description: "symlink ..data_tmp: errno \(errno)")
        }
        // (9)
        guard rename(temporaryLink, dataLink) == 0 else { throw Failure(description: "rename ..data: errno \(errno)") }
        // (10)
        for path in payload.keys {
            let first = String(path.split(separator: "/")[0])
            let visible = targetDirectory + "/" + first
            var info = stat()
            if lstat(visible, &info) != 0 && errno == ENOENT {
                guard symlink("..data/" + first, visible) == 0 else {
                    throw Failure(description: "symlink \(first): errno \(errno)")
                }
            }
        }
        // (11)
        for path in pathsToRemove where !path.contains("/") {
            unlink(targetDirectory + "/" + path)
        }
        // (12)
        if let oldPath { try FileManager.default.removeItem(atPath: oldPath) }
        return true
    }

    /// Every path below `directory`, relative to it (files and directories), as `filepath.Walk` lists them.
    private static func relativePaths(under directory: String) -> Set<String> {
        Set(FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? [])
    }

    /// The payload's paths and each of their parent directories: what must not be removed.
    private static func pathsAndParents(of paths: Dictionary<String, Data>.Keys) -> Set<String> {
        var result: Set<String> = []
        for path in paths {
            var components = path.split(separator: "/").map(String.init)
            while !components.isEmpty {
                result.insert(components.joined(separator: "/"))
                components.removeLast()
            }
        }
        return result
    }

    /// Now in Go's `2006_01_02_15_04_05` layout, in UTC.
    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy_MM_dd_HH_mm_ss"
        return formatter.string(from: Date())
    }
}
