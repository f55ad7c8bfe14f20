import LocalizationWire

/// The missing-key report as a `.strings` file a translator fills in: one entry per key,
/// grouped by table, the key as its own placeholder value.
enum MissingStringsSkeleton {
    static func render(_ entries: [WireValue], language: String) -> String {
        var output = "/* Keys looked up in \(language) but found in no language. Translate each value. */\n"
        let byTable = Dictionary(grouping: entries) { $0["table"]?.stringValue ?? "Localizable" }
        for (table, items) in byTable.sorted(by: { $0.key < $1.key }) {
            output += "\n/* Table: \(table) (\(table).strings) */\n"
            for item in items.sorted(by: { ($0["key"]?.stringValue ?? "") < ($1["key"]?.stringValue ?? "") }) {
                let key = quoted(item["key"]?.stringValue ?? "")
                output += "/* asked \(item["count"]?.integerValue ?? 0) times */\n\(key) = \(key);\n"
            }
        }
        return output
    }

    /// A `.strings` quoted string: the escapes the parser reads back to the same text.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
