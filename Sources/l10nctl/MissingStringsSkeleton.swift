import LocalizationCore
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

    static func quoted(_ text: String) -> String { StringsText.quoted(text) }
}
