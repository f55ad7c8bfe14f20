extension CLDRSnapshot {
    /// A `from:to`-per-line table of the snapshot (likely subtags, parent locales) as a
    /// dictionary; a line without a `:` is skipped.
    static func pairs(_ lines: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in lines.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            table[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        return table
    }
}
