extension StringsTable {
    /// What a `.strings` file that gives no entries holds, when that is all it holds (`0 bytes`,
    /// `only a newline`, `only a UTF-8 byte order mark`, `only comments`): a cleared file, which
    /// Foundation reads as a table with no keys, as often a truncated or failed save as meant.
    /// `nil` when the file has an entry, or a fault of its own that is reported instead.
    ///
    /// `bytes` are the file's, as read (the table's buffer may be transcoded from UTF-16).
    package func blankContent(of bytes: [UInt8]) -> String? {
        guard spans.isEmpty, earlyEnd == nil, nonStringValues.isEmpty else { return nil }
        guard !bytes.isEmpty else { return "0 bytes" }
        var rest = bytes[...]
        var parts: [String] = []
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) {
            parts.append("a UTF-8 byte order mark")
            rest = rest.dropFirst(3)
        } else if rest.starts(with: [0xFF, 0xFE]) || rest.starts(with: [0xFE, 0xFF]) {
            parts.append("a UTF-16 byte order mark")
            rest = rest.dropFirst(2)
        }
        // UTF-16's high bytes of ASCII whitespace are 0; anything else, in a file with no
        // entry and no fault, is a comment.
        let whitespace: Set<UInt8> = [0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20]
        let significant = rest.filter { $0 != 0 }
        if significant == [0x0A] {
            parts.append("a newline")
        } else if !significant.isEmpty {
            parts.append(significant.allSatisfy(whitespace.contains) ? "whitespace" : "comments")
        }
        return "only " + parts.joined(separator: " and ") + ", \(bytes.count) byte" + (bytes.count == 1 ? "" : "s")
    }
}
