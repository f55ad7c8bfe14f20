/// What a directory is watched for, which decides the events asked of the kernel and the
/// names dropped as soon as they are read, before any work: a busy neighbour — a log
/// written beside a root or in a folder of other files — then costs next to nothing.
///
/// One directory may be watched for several reasons (a root's parent that is also walked);
/// the watch then serves all of them (``formUnion(_:)``).
///
/// ```swift
/// WatchInterest.names(["Resources"]).accepts(name: "app.log", isDirectory: false)   // false
/// WatchInterest.tree.accepts(name: "ja.lproj", isDirectory: true)                   // true
/// ```
package struct WatchInterest: Sendable, Hashable {
    /// Every event for every name: an `.lproj`, whose files are read.
    package var everyName = false
    /// What can add or take away a table in a directory that is walked, not read:
    /// subdirectories, resource files, `..data` and links (which may lead to a directory).
    package var treeNames = false
    /// Exactly these names appearing, going or moving: the directory holding a root.
    package var names: Set<String> = []

    /// Every event for every name.
    package static let everything = WatchInterest(everyName: true)
    /// What a walked directory that is not an `.lproj` needs.
    package static let tree = WatchInterest(treeNames: true)

    /// Only `names` appearing, going or moving.
    package static func names(_ names: Set<String>) -> WatchInterest {
        WatchInterest(names: names)
    }

    /// Whether file events (writes, closes, attributes) are needed, not only names coming and going.
    package var needsFileEvents: Bool { everyName || treeNames }

    /// Adds what `other` needs.
    package mutating func formUnion(_ other: WatchInterest) {
        everyName = everyName || other.everyName
        treeNames = treeNames || other.treeNames
        names.formUnion(other.names)
    }

    /// Whether an event for `name` in the directory matters, without allocating.
    ///
    /// - Parameters:
    ///   - name: The entry's name as the kernel gave it (empty: the event is about the
    ///     directory itself, which always matters).
    ///   - isDirectory: `IN_ISDIR`: the entry is a directory.
    ///   - isLink: Asked last, only for a name nothing else admits: whether the entry is (or,
    ///     for one that is gone, was) a symbolic link, which may lead to a directory.
    package func accepts(
        name: UnsafeBufferPointer<UInt8>, isDirectory: Bool, isLink: () -> Bool = { false }
    ) -> Bool {
        if name.isEmpty || everyName { return true }
        for wanted in names where Self.equal(wanted, name) { return true }
        guard treeNames else { return false }
        if isDirectory || Self.resourceSuffixes.contains(where: { Self.hasSuffix(name, $0) }) { return true }
        // `..data`, Kubernetes' swapped link (``EditorTempFiles/isAtomicSwapLink(_:)``).
        if Self.equal("..data", name) { return true }
        return isLink()
    }

    /// ``accepts(name:isDirectory:isLink:)`` for a Swift string.
    package func accepts(name: String, isDirectory: Bool, isLink: () -> Bool = { false }) -> Bool {
        var name = name
        return name.withUTF8 { accepts(name: $0, isDirectory: isDirectory, isLink: isLink) }
    }

    /// Names of what the store reads, or leads to it; anything else in a walked directory is
    /// not a table. (Editors' temporaries are dropped later, by ``EditorTempFiles``.)
    private static let resourceSuffixes: [StaticString] = [".lproj", ".strings", ".stringsdict", ".xcstrings"]

    private static func hasSuffix(_ name: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard name.count >= count else { return false }
        return UnsafeBufferPointer(start: suffix.utf8Start, count: count).elementsEqual(name[(name.count - count)...])
    }

    private static func equal(_ wanted: StaticString, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        UnsafeBufferPointer(start: wanted.utf8Start, count: wanted.utf8CodeUnitCount).elementsEqual(name)
    }

    private static func equal(_ wanted: String, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        wanted.utf8.count == name.count && wanted.utf8.elementsEqual(name)
    }
}
