/// A set of absolute paths that finds everything at or below a directory in time
/// proportional to what it finds, not to how many paths it holds.
///
/// The watcher's watched directories and the store's known files both need "every path
/// under this one" for each deleted or changed directory; filtering all paths by prefix
/// each time made a burst of N deletions cost N × all paths. Here each path is a node
/// under its parent (the string up to its last `/`), with the parents that hold no path
/// of their own kept only while something is below them.
///
/// ```swift
/// var tree = PathTree()
/// tree.insert("/srv/l10n/ja.lproj/Localizable.strings")
/// tree.paths(atOrBelow: "/srv/l10n")   // ["/srv/l10n/ja.lproj/Localizable.strings"]
/// ```
struct PathTree: Sendable {
    private var members: Set<String> = []
    private var children: [String: Set<String>] = [:]

    /// The number of paths held.
    var count: Int { members.count }

    /// Whether `path` itself is held.
    func contains(_ path: String) -> Bool { members.contains(path) }

    /// Adds `path`.
    mutating func insert(_ path: String) {
        guard members.insert(path).inserted else { return }
        var child = path
        while let parent = Self.parent(of: child) {
            let isNewNode = children[parent] == nil && !members.contains(parent)
            children[parent, default: []].insert(child)
            guard isNewNode else { return }
            child = parent
        }
    }

    /// Removes `path` (what is below it stays).
    mutating func remove(_ path: String) {
        guard members.remove(path) != nil else { return }
        prune(path)
    }

    /// Whether `path` or anything below it is held.
    func holdsAny(atOrBelow path: String) -> Bool {
        members.contains(path) || !(children[path]?.isEmpty ?? true)
    }

    /// Every path held at or below `path`, in no particular order.
    func paths(atOrBelow path: String) -> [String] {
        var found: [String] = []
        var pending = [path]
        while let next = pending.popLast() {
            if members.contains(next) { found.append(next) }
            if let below = children[next] { pending.append(contentsOf: below) }
        }
        return found
    }

    /// Every path held.
    var all: Set<String> { members }

    /// Drops `node` from its parent when it holds no path and nothing is below it, and so on upwards.
    private mutating func prune(_ node: String) {
        var node = node
        while !members.contains(node), children[node]?.isEmpty ?? true, let parent = Self.parent(of: node) {
            children[node] = nil
            children[parent]?.remove(node)
            if children[parent]?.isEmpty == true { children[parent] = nil }
            node = parent
        }
    }

    /// `path` up to its last `/` (`/` for a top-level path); `nil` for `/` or a bare name.
    static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }
}
