import Foundation

/// `.stringsdict` entries to add to a language's file that lacks them, or to a file the
/// language does not have yet, shaped as the development language's entry (its format, its
/// variables in its order, their value types) with the translated forms in CLDR order, and
/// written as the file writes XML (its indentation; a new file takes the development
/// language's prolog).
struct StringsDictAdditions {
    /// The development language's file: its bytes, and its entries in file order.
    let reference: [UInt8]
    let referenceEntries: [String: TableEntry]
    let referenceOrder: [String]

    init?(reference: [UInt8]) {
        guard let entries = try? StringsDictReader.parse(reference), let spans = ValueSpans.propertyList(reference)
        else { return nil }
        self.reference = reference
        referenceEntries = entries
        referenceOrder = spans.keys[[]] ?? entries.keys.sorted()
    }

    /// A file with no entries, with the development language's prolog (XML declaration,
    /// doctype, `<plist>`).
    func emptyFile() -> [UInt8] {
        let text = String(decoding: reference, as: UTF8.self)
        guard let open = text.range(of: "<dict>") else {
            return Array(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n</dict>\n</plist>\n".utf8)
        }
        // The root `</dict>` closes at the column its `<dict>` opens at.
        let lineStart = text[..<open.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        let indent = text[lineStart..<open.lowerBound].prefix { $0 == " " || $0 == "\t" }
        return Array((text[..<open.upperBound] + "\n\(indent)</dict>\n</plist>\n").utf8)
    }

    /// The insertions that add each entry of `entries` (key → its format, if translated,
    /// and forms by variable) to `bytes`, each after the entry that precedes it in the
    /// development language's file (else at the end), and each key it cannot add with why.
    func insertions(
        _ entries: [String: (format: String?, forms: [String: [PluralCategory: String]])], into bytes: [UInt8],
        spans: ValueSpans, file: String
    ) -> (replacements: [(range: Range<Int>, text: String)], added: Int, skipped: [String]) {
        // Indented as the file's entries are, or (a file with none) the development language's.
        let own = bytes.count > 0 && spans.keys[[]]?.isEmpty == false ? PropertyListIndentation(bytes) : nil
        let theirs = PropertyListIndentation(reference)
        let base = own?.base ?? theirs.base
        let unit = own?.step ?? theirs.step ?? (base.isEmpty ? "\t" : base)
        var replacements: [(range: Range<Int>, text: String)] = []
        var added = 0
        var skipped: [String] = []
        let present = Set(spans.keys[[]] ?? [])
        // Texts by where they go: entries added at one place stay in the reference's order.
        var texts: [Int: String] = [:]
        let order =
            referenceOrder.filter { entries[$0] != nil } + entries.keys.sorted().filter { !referenceOrder.contains($0) }
        for key in order {
            let (format, forms) = entries[key]!
            guard let original = referenceEntries[key]?.plural else {
                skipped.append("\(file): \(key) is not a plural entry of the development language's file; not added")
                continue
            }
            let names = original.variables.keys.sorted()
            guard names.allSatisfy({ forms[$0]?[.other] != nil }) else {
                skipped.append(
                    "\(file): \(key) is not added: each of its variables (\(names.joined(separator: ", "))) "
                        + "needs an 'other' form")
                continue
            }
            var lines = ["<key>\(PropertyListText.escaped(key))</key>", "<dict>"]
            func pair(_ name: String, _ value: String, depth: Int) {
                let indent = String(repeating: unit, count: depth)
                lines.append(indent + "<key>\(PropertyListText.escaped(name))</key>")
                lines.append(indent + "<string>\(PropertyListText.escaped(value))</string>")
            }
            pair("NSStringLocalizedFormatKey", format ?? original.format, depth: 1)
            for name in names {
                lines.append(unit + "<key>\(PropertyListText.escaped(name))</key>")
                lines.append(unit + "<dict>")
                pair("NSStringFormatSpecTypeKey", "NSStringPluralRuleType", depth: 2)
                if let type = original.variables[name]?.valueType { pair("NSStringFormatValueTypeKey", type, depth: 2) }
                for category in PluralCategory.allCases {
                    if let form = forms[name]?[category] { pair(category.rawValue, form, depth: 2) }
                }
                lines.append(unit + "</dict>")
            }
            lines.append("</dict>")
            // After the entry the development language has before it, where this file has one.
            let earlier = referenceOrder.prefix { $0 != key }.last { present.contains($0) }
            if let earlier, let end = spans.containerEnds[[earlier]] {
                texts[end + "</dict>".utf8.count, default: ""] += lines.map { "\n" + base + $0 }.joined()
            } else if let later = referenceOrder.drop(while: { $0 != key }).first(where: { present.contains($0) }),
                let start = topLevelKeyLine(later, in: bytes, indent: base)
            {
                // Before the entry the development language has after it.
                texts[start, default: ""] += lines.map { base + $0 + "\n" }.joined()
            } else {
                let end = spans.containerEnds[[]]!
                var lineStart = end
                while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
                texts[lineStart, default: ""] += lines.map { base + $0 + "\n" }.joined()
            }
            added += forms.values.map(\.count).reduce(0, +) + (format == nil ? 0 : 1)
        }
        replacements += texts.map { ($0.key..<$0.key, $0.value) }
        return (replacements, added, skipped)
    }

    /// Where the line of the top-level `<key>KEY</key>` (indented by `indent`) starts.
    private func topLevelKeyLine(_ key: String, in bytes: [UInt8], indent: String) -> Int? {
        let line = Array(("\n" + indent + "<key>\(PropertyListText.escaped(key))</key>").utf8)
        guard let found = bytes.indices.first(where: { bytes[$0...].starts(with: line) }) else { return nil }
        return found + 1
    }
}
