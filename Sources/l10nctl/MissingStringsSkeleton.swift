import LocalizationCore
import LocalizationInterchange
import LocalizationWire

/// The missing-key report as a file a translator fills in, for one language: a `.strings`
/// file (each key its own placeholder value, grouped by table) or a gettext `.po` file
/// (the table as `msgctxt`, an empty `msgstr`). Each entry says how often users asked and
/// what they saw instead: a fallback language's string, or the key itself.
enum MissingStringsSkeleton {
    /// One entry of the `missing` reply.
    struct Item {
        var table: String
        var key: String
        var count: Int64
        var servedBy: String?

        init(table: String, key: String) {
            self.table = table
            self.key = key
            count = 0
        }

        init(_ value: WireValue) {
            table = value["table"]?.stringValue ?? "Localizable"
            key = value["key"]?.stringValue ?? ""
            count = value["count"]?.integerValue ?? 0
            servedBy = value["from"]?.stringValue
        }

        /// Counts `other`'s lookups too; a fallback's string is what users saw if any had one.
        mutating func add(_ other: Item) {
            count += other.count
            servedBy = servedBy ?? other.servedBy
        }

        /// `asked 3 times; users saw the Base string` or `…; found in no language`.
        var note: String {
            "asked \(count) time\(count == 1 ? "" : "s"); "
                + (servedBy.map { "users saw the \($0) string" } ?? "found in no language")
        }
    }

    /// The entries sorted by table, then key; one per key, its counts summed, when several
    /// spellings of the language asked (`ja` and `ja-JP`).
    static func items(_ entries: [WireValue]) -> [Item] {
        var merged: [String: Item] = [:]
        for item in entries.map(Item.init) {
            merged["\(item.table)\u{0}\(item.key)", default: Item(table: item.table, key: item.key)].add(item)
        }
        return merged.values.sorted { ($0.table, $0.key) < ($1.table, $1.key) }
    }

    /// A `.strings` file: each key with its source text as the value (the key where no file
    /// has it), and the plural keys (a `.stringsdict` or String Catalog plural), which have no
    /// `.strings` form, as `TABLE/KEY`: the file names each in a comment, and the caller says
    /// so on stderr and fails, as `--format po` writes them as plural messages.
    static func render(_ entries: [WireValue], language: String, sources: MissingStringsSources? = nil) -> (
        text: String, plurals: [String]
    ) {
        var output = "/* Keys looked up in \(language) that \(language) lacks. Translate each value. */\n"
        var plurals: [String] = []
        var table: String?
        for item in items(entries) {
            if item.table != table {
                table = item.table
                output += "\n/* Table: \(item.table) (\(item.table).strings) */\n"
            }
            let key = quoted(item.key)
            let source = sources?.source(table: item.table, key: item.key)
            if source?.plural != nil {
                output += "/* \(item.note); \(key.replacing("*/", with: "* /")) is a plural entry: "
                output += "l10nctl missing --format po writes it with its plural forms */\n"
                plurals.append("\(item.table)/\(item.key)")
                continue
            }
            output += "/* \(item.note) */\n\(key) = \(quoted(source?.value ?? item.key));\n"
        }
        return (output, plurals)
    }

    /// The same as a gettext catalog. Keys the files have are the export's messages
    /// (`msgctxt` `FILE|ID`, plural keys as plural messages with the language's
    /// `Plural-Forms`), which import places as they are; a key no file has is a message with
    /// the table as `msgctxt` and the key as `msgid`.
    static func renderPO(_ entries: [WireValue], language: String, sources: MissingStringsSources? = nil) -> String {
        var items = items(entries)
        var exported: String?
        if let sources { (exported, items) = sources.poMessages(items, language: language) }
        if let exported {
            var output = "# Keys looked up in \(language) that \(language) lacks. Fill in each msgstr.\n" + exported
            for item in items {
                let (table, key) = (PODocument.quoted(item.table), PODocument.quoted(item.key))
                output += "\n#. \(item.note)\nmsgctxt \(table)\nmsgid \(key)\nmsgstr \"\"\n"
            }
            return output
        }
        var output = """
            # Keys looked up in \(language) that \(language) lacks. Fill in each msgstr.
            msgid ""
            msgstr ""
            "Language: \(language)\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"

            """
        for item in items {
            let (table, key) = (PODocument.quoted(item.table), PODocument.quoted(item.key))
            output += "\n#. \(item.note)\nmsgctxt \(table)\nmsgid \(key)\nmsgstr \"\"\n"
        }
        return output
    }

    /// A `.strings` quoted string (control characters as `\U001B`, which `msgfmt` rejects:
    /// a `.po` file's are written by ``PODocument/quoted(_:)``).
    static func quoted(_ text: String) -> String { StringsText.quoted(text) }
}
