/// String units to add to a String Catalog that lacks them (a language's first
/// localization of a key, a plural form a localization lacks), written as the file writes
/// JSON: its indentation and `" : "` or `": "`, each object's keys in Xcode's order
/// (sorted), every other byte kept.
struct CatalogAdditions {
    /// One unit to add: its path (`strings/KEY/localizations/LANG/…/stringUnit`), value and state.
    struct Unit {
        var path: [String]
        var value: String
        var state: String
    }

    private indirect enum Node {
        case text(String)
        case object([String: Node])
    }

    let bytes: [UInt8]
    let spans: ValueSpans

    /// The insertions that add `units`, and each unit it cannot add with why (the key is not
    /// in the catalog, or a part of the path is not an object).
    func insertions(_ units: [Unit], file: String) -> (
        replacements: [(range: Range<Int>, text: String)], added: [[String]], skipped: [String]
    ) {
        var trees: [[String]: [String: Node]] = [:]
        var added: [[String]] = []
        var skipped: [String] = []
        for unit in units {
            // The deepest object the file has on the unit's path; the catalog must have the key.
            var depth = unit.path.count
            while depth > 0, spans.keys[Array(unit.path.prefix(depth))] == nil { depth -= 1 }
            guard depth >= 2, depth < unit.path.count, spans.members[Array(unit.path.prefix(depth + 1))] == nil
            else {
                skipped.append(
                    "\(file): \(unit.path.dropFirst().joined(separator: "/")) cannot be added: "
                        + (depth < 2 ? "the key is not in the catalog" : "the catalog writes it otherwise"))
                continue
            }
            let container = Array(unit.path.prefix(depth))
            var members = trees[container] ?? [:]
            Self.insert(
                Array(unit.path[depth...]),
                .object(["state": .text(unit.state), "value": .text(unit.value)]), into: &members)
            trees[container] = members
            added.append(unit.path)
        }
        var replacements: [(range: Range<Int>, text: String)] = []
        for (container, members) in trees {
            replacements += insertions(members, into: container)
        }
        return (replacements, added, skipped)
    }

    private static func insert(_ path: [String], _ leaf: Node, into members: inout [String: Node]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            members[first] = leaf
            return
        }
        var children: [String: Node] = [:]
        if case .object(let existing) = members[first] { children = existing }
        insert(Array(path.dropFirst()), leaf, into: &children)
        members[first] = .object(children)
    }

    /// The text that adds `members` to the object at `container`: each before the first key
    /// that sorts after it, else after the last member.
    private func insertions(_ members: [String: Node], into container: [String]) -> [(
        range: Range<Int>, text: String
    )] {
        let existing = spans.keys[container] ?? []
        let indent = memberIndent(of: container)
        var byAnchor: [String?: [String]] = [:]
        for name in members.keys.sorted() {
            byAnchor[existing.sorted().first { $0 > name }, default: []].append(name)
        }
        return byAnchor.map { anchor, names in
            let rendered = names.map { render($0, members[$0]!, indent: indent) }
            if let anchor, let place = spans.members[container + [anchor]] {
                return (place.lowerBound..<place.lowerBound, rendered.map { $0 + ",\n" + indent }.joined())
            }
            if let last = existing.last, let place = spans.members[container + [last]] {
                return (place.upperBound..<place.upperBound, rendered.map { ",\n" + indent + $0 }.joined())
            }
            // An empty object: its members on lines of their own, its `}` on the parent's indent.
            let end = spans.containerEnds[container]!
            var open = end
            while open > 0, bytes[open - 1] != UInt8(ascii: "{") { open -= 1 }
            let closing = String(indent.dropLast(unit.count))
            return (open..<end, "\n" + indent + rendered.joined(separator: ",\n" + indent) + "\n" + closing)
        }
    }

    private func render(_ name: String, _ node: Node, indent: String) -> String {
        let key = JSONText.literal(name) + separator
        switch node {
        case .text(let text): return key + JSONText.literal(text)
        case .object(let children):
            let inner = indent + unit
            let lines = children.keys.sorted().map { inner + render($0, children[$0]!, indent: inner) }
            return key + "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    /// `" : "` as Xcode writes, or `": "` as JSONSerialization and most tools do.
    private var separator: String {
        let xcode = Array("\" : ".utf8)
        let found = bytes.indices.contains { bytes[$0...].starts(with: xcode) }
        return found ? " : " : ": "
    }

    /// One level of indentation: the first indented line's whitespace (a top-level member's).
    private var unit: String {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                var end = index + 1
                while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
                if end > index + 1 { return String(decoding: bytes[(index + 1)..<end], as: UTF8.self) }
            }
            index += 1
        }
        return "  "
    }

    /// The whitespace before a member of `container`: an existing member's, else one level
    /// more than the container's own.
    private func memberIndent(of container: [String]) -> String {
        if let first = spans.keys[container]?.first, let place = spans.members[container + [first]] {
            return indent(before: place.lowerBound)
        }
        guard let own = spans.members[container] else { return unit }
        return indent(before: own.lowerBound) + unit
    }

    private func indent(before position: Int) -> String {
        var start = position
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }
}
