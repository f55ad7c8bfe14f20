/// Finds roughly where a nested key is written in a file's bytes, for error messages.
///
/// Foundation's property list and JSON readers hand back values without positions, so a
/// problem found afterwards (a missing form, a wrong type) has no line of its own. Searching
/// for each key of the path in turn, each after the previous one, finds the place a person
/// would look at in all but contrived files. Only the error path pays for the search.
struct KeyPathLocator {
    /// How a key is spelt in the file.
    enum Syntax {
        /// `<key>name</key>` in an XML property list.
        case xmlPropertyList
        /// `"name"` in JSON.
        case json
    }

    let bytes: [UInt8]
    let syntax: Syntax
    let file: String?

    /// The location of the last key of `path` that could be found, or 1:1 when none was.
    func location(of path: [String]) -> SourceLocation {
        var searchStart = 0
        var found: Int?
        for name in path {
            guard let offset = firstOffset(of: name, from: searchStart) else { break }
            found = offset
            searchStart = offset + 1
        }
        guard let found else { return SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(byteOffset: found, in: bytes, file: file)
    }

    private func firstOffset(of name: String, from start: Int) -> Int? {
        for needle in needles(for: name) {
            if let offset = firstOffset(of: needle, from: start) { return offset }
        }
        return nil
    }

    /// The spellings a writer may have used, most likely first.
    private func needles(for name: String) -> [[UInt8]] {
        switch syntax {
        case .xmlPropertyList:
            let escaped = name.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            let spellings = [escaped.replacing(">", with: "&gt;"), escaped, name]
            return spellings.map { Array("<key>\($0)</key>".utf8) }
        case .json:
            let escaped = name.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            let spellings = [escaped, escaped.replacing("/", with: "\\/")]
            return spellings.map { Array("\"\($0)\"".utf8) }
        }
    }

    private func firstOffset(of needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
