/// Names editors, sync tools and Kubernetes use for files that are not (yet) a resource.
///
/// Editors rarely write a file in place: vim probes the directory with a file named `4913`
/// and keeps a backup `X~`; JetBrains IDEs write `X___jb_tmp___` and keep `X___jb_old___`;
/// emacs makes lock links `.#X` and autosaves `#X#`; rsync writes `.X.AbC123` or into a
/// `.~tmp~` directory. Events for these names say nothing about the resource itself — the
/// final rename or close onto the real name does — so the watcher ignores them.
package enum EditorTempFiles {
    /// Whether `name` (one path component) is a temporary, backup, swap or lock file.
    ///
    /// Every hidden name (leading `.`) counts: vim swap files, emacs locks, rsync temporaries
    /// and Kubernetes' `..2026_01_01` directories are all hidden, and no resource is.
    ///
    /// ```swift
    /// EditorTempFiles.isTemporary("Localizable.strings~")   // true
    /// EditorTempFiles.isTemporary("Localizable.strings")    // false
    /// ```
    package static func isTemporary(_ name: String) -> Bool {
        if name.isEmpty || name.hasPrefix(".") || name.hasSuffix("~") { return true }
        if name.count > 1 && name.hasPrefix("#") && name.hasSuffix("#") { return true }
        // vim's write probe is 4913, then 5036, 5159, … when that name is taken.
        if name.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        let suffixes = ["___jb_tmp___", "___jb_old___", ".tmp", ".swp", ".swx", ".swo"]
        return suffixes.contains { name.hasSuffix($0) }
    }

    /// Whether `name` is a file the daemon loads: `.strings`, `.stringsdict` or `.xcstrings`.
    package static func isResourceFile(_ name: String) -> Bool {
        guard !isTemporary(name) else { return false }
        return name.hasSuffix(".strings") || name.hasSuffix(".stringsdict") || name.hasSuffix(".xcstrings")
    }

    /// Whether `name` is the Kubernetes ConfigMap/Secret volume link that is atomically swapped.
    ///
    /// Kubernetes writes a new `..2026_01_01_…` directory, points a temporary link at it and
    /// renames that link over `..data`; the user-visible names are links through `..data`
    /// and never change themselves, so a change of `..data` means "everything here changed".
    package static func isAtomicSwapLink(_ name: String) -> Bool {
        name == "..data"
    }
}
