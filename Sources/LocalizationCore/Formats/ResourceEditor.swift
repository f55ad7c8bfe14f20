import Foundation

/// One translated value to write into a resource file.
public enum ResourceEdit: Sendable, Hashable {
    /// A `.strings` entry's value (appended when the key is not there).
    case strings(key: String, value: String)
    /// A `.stringsdict` entry's `NSStringLocalizedFormatKey`.
    case stringsDictFormat(key: String, value: String)
    /// One plural form of a `.stringsdict` variable (added to the variable when missing).
    case stringsDictForm(key: String, variable: String, category: PluralCategory, value: String)
    /// A String Catalog localization's `stringUnit` value.
    case catalogValue(key: String, language: String, value: String)
    /// One form of a String Catalog localization's `variations.plural`.
    case catalogPluralForm(key: String, language: String, category: PluralCategory, value: String)
    /// The `state` of a String Catalog `stringUnit` (of a plural form when `category` is
    /// given): with a value edit of the same unit, the state written with it (else
    /// `translated`); alone, the state set on the unchanged value (`needs_review` confirmed).
    case catalogState(key: String, language: String, category: PluralCategory?, state: String)
}

/// Writes translated values into the bytes of a `.strings`, `.stringsdict` or `.xcstrings`
/// file, replacing only each value's own bytes: comments, order, indentation, escapes of
/// every other entry stay as they were, so an import with nothing new changes no byte.
///
/// A catalog unit the catalog lacks (a language's first localization of a key, a plural
/// form) is added as Xcode writes it (``CatalogAdditions``), and a `.stringsdict` entry the
/// file lacks (or the whole file) as the development language's entry is shaped
/// (``StringsDictAdditions``). What cannot be written is skipped and said: a `.stringsdict`
/// variable an entry lacks, a key the catalog lacks, a `.strings` file that is UTF-16 or a
/// property list.
public enum ResourceEditor {
    /// The result of applying edits.
    public struct Outcome: Sendable {
        /// The file's new bytes.
        public var bytes: [UInt8]
        /// How many values changed or were added: one per edit written (a catalog value whose
        /// state is set with it is one; a state set alone, a value confirmed, is one).
        public var changed: Int
        /// Edits not written, each with why.
        public var skipped: [String]
    }

    /// Applies `edits` to `bytes` (a file of `kind`; empty for a file that does not exist
    /// yet). `reference` is the development language's file of a `.stringsdict`: an entry the
    /// file lacks (the file itself, when it is missing) is added shaped as its entry there.
    public static func apply(
        _ edits: [ResourceEdit], to bytes: [UInt8], kind: ResourceFile.Kind, file: String, reference: [UInt8]? = nil
    )
        throws(ResourceParseError) -> Outcome
    {
        let additions = kind == .stringsDict ? reference.flatMap(StringsDictAdditions.init(reference:)) : nil
        let bytes = bytes.isEmpty ? additions?.emptyFile() ?? bytes : bytes
        var replacements: [(range: Range<Int>, text: String)] = []
        var skipped: [String] = []
        var appended = ""
        // Edits written, each once, however many byte ranges it takes.
        var changed = 0
        switch kind {
        case .strings:
            let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
            if bytes.count >= 2,
                bytes[0] == 0 || bytes[1] == 0 || bytes.starts(with: [0xFF, 0xFE])
                    || bytes.starts(with: [0xFE, 0xFF])
            {
                return Outcome(
                    bytes: bytes, changed: 0,
                    skipped: ["\(file): a UTF-16 .strings file is not written; save it as UTF-8"])
            }
            // Each key's last entry, keys compared as Swift strings, straight from the file's
            // buffer (no entry list or table of the whole file first).
            let parsed = try StringsParser.parseTable(bytes, file: file)
            var last: [String: StringsEntry] = [:]
            for position in parsed.spans.indices {
                let entry = parsed.entry(at: position)
                last[entry.key] = entry
            }
            for edit in edits {
                guard case .strings(let key, let value) = edit else { continue }
                if let entry = last[key] {
                    guard entry.value != value else { continue }
                    guard let range = entry.valueRange else {
                        skipped.append("\(file): \"\(key)\" is in a property list .strings file, which is not written")
                        continue
                    }
                    let shifted = (range.lowerBound + (hasBOM ? 3 : 0))..<(range.upperBound + (hasBOM ? 3 : 0))
                    replacements.append(
                        (shifted, range.isEmpty ? " = " + StringsText.quoted(value) : StringsText.quoted(value)))
                } else if let end = parsed.earlyEnd {
                    // Past where reading stops (a stray character, a comment never closed),
                    // an added entry would be read by nobody: said, not written.
                    skipped.append(
                        "\(file): \"\(key)\" is not added: reading the file stops at \(end.location.line):"
                            + "\(end.location.column) (\(end.cause == .unclosedComment ? "a comment never closed" : end.found)), "
                            + "so nothing after it is read; fix that first")
                    continue
                } else {
                    appended += "\(StringsText.quoted(key)) = \(StringsText.quoted(value));\n"
                }
                changed += 1
            }
        case .stringsDict:
            guard let spans = ValueSpans.propertyList(bytes) else {
                throw ResourceParseError(
                    location: SourceLocation(file: file, line: 1, column: 1),
                    message: "not an XML property list this can write into")
            }
            let current = (try? StringsDictReader.parse(bytes, file: file)) ?? [:]
            // Entries the file lacks, gathered to be added whole.
            var missing: [String: (format: String?, forms: [String: [PluralCategory: String]])] = [:]
            for edit in edits {
                let path: [String]
                let value: String
                switch edit {
                case .stringsDictFormat(let key, let text):
                    (path, value) = ([key, "NSStringLocalizedFormatKey"], text)
                    if current[key]?.plural?.format == text { continue }
                case .stringsDictForm(let key, let variable, let category, let text):
                    (path, value) = ([key, variable, category.rawValue], text)
                    if current[key]?.plural?.variables[variable]?.forms[category] == text { continue }
                default: continue
                }
                if additions != nil, spans.containerEnds[[path[0]]] == nil {
                    if path.count == 2 {
                        missing[path[0], default: (nil, [:])].format = value
                    } else if let category = PluralCategory(rawValue: path[2]) {
                        missing[path[0], default: (nil, [:])].forms[path[1], default: [:]][category] = value
                    }
                    continue
                }
                if let span = spans.strings[path] {
                    let escaped = PropertyListText.escaped(value)
                    replacements.append((span.range, span.isEmptyElement ? "<string>\(escaped)</string>" : escaped))
                } else if let end = spans.containerEnds[Array(path.dropLast())] {
                    replacements.append(
                        (end..<end, insertion(key: path.last!, value: value, before: end, in: bytes)))
                } else {
                    skipped.append(
                        "\(file): \(path.dropLast().joined(separator: "/")) is not in the file; add it first")
                    continue
                }
                changed += 1
            }
            if let additions, !missing.isEmpty {
                let (inserted, added, refused) = additions.insertions(missing, into: bytes, spans: spans, file: file)
                replacements += inserted
                changed += added
                skipped += refused
            }
        case .stringCatalog:
            guard let spans = ValueSpans.json(bytes) else {
                throw ResourceParseError(
                    location: SourceLocation(file: file, line: 1, column: 1), message: "not JSON this can write into")
            }
            func path(_ key: String, _ language: String, _ category: PluralCategory?) -> [String] {
                ["strings", key, "localizations", language]
                    + (category.map { ["variations", "plural", $0.rawValue] } ?? []) + ["stringUnit"]
            }
            var states: [[String]: String] = [:]
            for case .catalogState(let key, let language, let category, let state) in edits {
                states[path(key, language, category)] = state
            }
            var written: Set<[String]> = []
            var additions: [CatalogAdditions.Unit] = []
            func setState(_ state: String, of unit: [String]) -> Bool {
                guard let span = spans.strings[unit + ["state"]], JSONText.decode(Array(bytes[span.range])) != state
                else { return false }
                replacements.append((span.range, JSONText.literal(state)))
                return true
            }
            for edit in edits {
                let unit: [String]
                let value: String
                switch edit {
                case .catalogValue(let key, let language, let text): (unit, value) = (path(key, language, nil), text)
                case .catalogPluralForm(let key, let language, let category, let text):
                    (unit, value) = (path(key, language, category), text)
                default: continue
                }
                guard let span = spans.strings[unit + ["value"]] else {
                    // A unit the catalog lacks (the language's first localization of the key,
                    // a plural form): added, as Xcode would write it.
                    if !additions.contains(where: { $0.path == unit }) {
                        additions.append(.init(path: unit, value: value, state: states[unit] ?? "translated"))
                    }
                    continue
                }
                guard JSONText.decode(Array(bytes[span.range])) != value else { continue }
                replacements.append((span.range, JSONText.literal(value)))
                written.insert(unit)
                changed += 1
                // A translator's saved value is translated, as Xcode marks an imported one,
                // unless the import says otherwise (a fuzzy message: `needs_review`).
                _ = setState(states[unit] ?? "translated", of: unit)
            }
            let (inserted, added, refused) = CatalogAdditions(bytes: bytes, spans: spans).insertions(
                additions, file: file)
            replacements += inserted
            skipped += refused
            changed += added.count
            written.formUnion(added)
            for (unit, state) in states.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) })
            where !written.contains(unit) && setState(state, of: unit) {
                changed += 1
            }
        }
        var result = bytes
        for (range, text) in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            result.replaceSubrange(range, with: Array(text.utf8))
        }
        if !appended.isEmpty {
            // Added lines end as the file's first line does (CRLF from a Windows editor), so
            // the file keeps one line ending; the quoted keys and values hold no raw newline.
            let crlf = result.firstIndex(of: 0x0A).map { $0 > 0 && result[$0 - 1] == 0x0D } ?? false
            let newline: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
            if let last = result.last, last != 0x0A { result += newline }
            result += Array((crlf ? appended.replacing("\n", with: "\r\n") : appended).utf8)
        }
        return Outcome(bytes: result, changed: changed, skipped: skipped)
    }

    /// `<key>KEY</key><string>VALUE</string>` to insert before a `</dict>` at `end`: on
    /// lines of their own, one of the file's own steps (tab, 2 or 4 spaces) deeper than the
    /// `</dict>`, when the file is laid out that way.
    private static func insertion(key: String, value: String, before end: Int, in bytes: [UInt8]) -> String {
        let pair = (
            "<key>\(PropertyListText.escaped(key))</key>", "<string>\(PropertyListText.escaped(value))</string>"
        )
        var lineStart = end
        while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
        guard lineStart > 0, bytes[lineStart - 1] == 0x0A else { return pair.0 + pair.1 }
        let closingIndent = String(decoding: bytes[lineStart..<end], as: UTF8.self)
        let step = PropertyListIndentation(bytes).step ?? (closingIndent.hasPrefix("\t") ? "\t" : "    ")
        let indent = closingIndent + step
        return "\(indent.dropFirst(closingIndent.count))\(pair.0)\n\(indent)\(pair.1)\n\(closingIndent)"
    }
}

/// `.strings` quoted strings.
package enum StringsText {
    /// `text` as a `.strings` quoted string: the escapes the parser reads back to the same
    /// text (other control characters as `\UXXXX`).
    package static func quoted(_ text: String) -> String {
        "\"" + TextEscaping.escaped(text, TextEscaping.backslashed) { String(format: "\\U%04X", $0) } + "\""
    }
}

/// Character escaping for the formats l10nd writes, in one place.
package enum TextEscaping {
    /// The backslash escapes of C-like string literals (`.strings`, JSON, gettext).
    package static let backslashed: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r",
    ]
    /// XML's escapes for text and attribute values.
    package static let xml: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;"]

    /// `text` with each scalar in `replacements` replaced, and any other control character
    /// (below U+0020) given to `control` when there is one.
    package static func escaped(
        _ text: String, _ replacements: [Unicode.Scalar: String], control: ((UInt32) -> String)? = nil
    ) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let replacement = replacements[scalar] {
                result += replacement
            } else if scalar.value < 0x20, let control {
                result += control(scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
