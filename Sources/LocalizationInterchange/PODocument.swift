import Foundation
public import LocalizationCore

/// gettext `.po` files for Poedit, Weblate and `msgfmt`.
///
/// - `msgctxt` is `ORIGINAL|ID`: the development language's file (which names the table)
///   and the unit's XLIFF id, so every message is unique even when two keys share a text.
/// - `msgid` is the development language's text; `#.` carries the developer's comment and
///   `#:` the file.
/// - A plural variable is one message: `msgctxt` `ORIGINAL|GROUP` (the id its forms share),
///   `msgid` the development language's `one` form (else `other`) — in every language, also
///   one whose rule has only `other` — `msgid_plural` its `other` form, and
///   `msgstr[k]` the target language's *k*-th CLDR category (``GettextPluralForms``), which
///   the header's `Plural-Forms` numbers the same way.
/// - Units whose source is empty are left out (gettext reserves the empty `msgid`), and an
///   empty `msgstr` means untranslated: import never writes an empty value from a `.po`.
public enum PODocument {
    /// The file for `project`'s files.
    public static func render(_ project: TranslationProject) -> String {
        let forms = GettextPluralForms(language: project.language)
        let header = [
            "Project-Id-Version: l10nd\\n", "PO-Revision-Date: 1970-01-01 00:00+0000\\n",
            "Last-Translator: l10nctl export\\n", "Language-Team: \(project.language.identifier)\\n",
            "Language: \(project.language.identifier.replacing("-", with: "_"))\\n",
            "MIME-Version: 1.0\\n", "Content-Type: text/plain; charset=UTF-8\\n", "Content-Transfer-Encoding: 8bit\\n",
            "Plural-Forms: \(forms.header)\\n", "X-Source-Language: \(project.developmentLanguage.identifier)\\n",
        ]
        var po = "msgid \"\"\nmsgstr \"\"\n" + header.map { "\"\($0)\"\n" }.joined()
        let single = singleIntegerCategories(project.language)
        for file in project.files {
            var index = 0
            while index < file.units.count {
                let unit = file.units[index]
                guard let group = unit.pluralGroup else {
                    index += 1
                    guard !unit.source.isEmpty else { continue }
                    po +=
                        "\n" + comments(unit, file, base: [unit], language: project.language)
                        + flags([unit], sources: [unit.source])
                    po += field("msgctxt", "\(file.original)|\(unit.id)")
                    po += field("msgid", unit.source) + field("msgstr", unit.target ?? "")
                    continue
                }
                var members: [TranslationUnit] = []
                while index < file.units.count, file.units[index].pluralGroup == group {
                    members.append(file.units[index])
                    index += 1
                }
                let (singular, plural) = pluralSources(members)
                guard !singular.isEmpty else { continue }
                po +=
                    "\n" + comments(unit, file, base: members, language: project.language)
                    + flags(members, sources: [singular, plural], singleIntegerCategories: single)
                po += field("msgctxt", "\(file.original)|\(group)")
                po += field("msgid", singular) + field("msgid_plural", plural)
                for (number, category) in forms.categories.enumerated() {
                    po += field("msgstr[\(number)]", members.first { $0.category == category }?.target ?? "")
                }
            }
        }
        return po
    }

    /// The `msgid` and `msgid_plural` of a plural variable's forms, as gettext has them in
    /// every language: the development language's singular (``TranslationUnit/sourceSingular``,
    /// even where the target language has no `one`) and its `other` form (else the `msgid`).
    /// Import compares them with the file's to find a translation made for plural texts
    /// changed since, and places a message without `msgctxt` by them.
    static func pluralSources(_ members: [TranslationUnit]) -> (singular: String, plural: String) {
        let singular =
            members.first?.sourceSingular ?? members.first { $0.category == .one }?.source ?? members.last?.source
            ?? ""
        return (singular, members.first { $0.category == .other }?.source ?? singular)
    }

    /// Whether a plural message's `msgid` and `msgid_plural` (`sources`) are those of
    /// `members` now. A language without `one` was exported before with `msgid` its `other`
    /// form too: such a file names the same `other` text its one translation is for, and
    /// matches as well — any other pair is another text, never taken for this one.
    static func pluralSourcesMatch(_ sources: [String], _ members: [TranslationUnit]) -> Bool {
        let now = pluralSources(members)
        if sources == [now.singular, now.plural] { return true }
        let hasOne = members.contains { $0.category == .one }
        return !hasOne && sources == [now.plural, now.plural]
    }

    /// `#, fuzzy` for a translation a String Catalog marks `needs_review` or `new` (gettext's
    /// one word for "not final", which import reads back as `needs_review`), and when a
    /// translation starts or ends with a line break its source does not (or the other way
    /// round): `msgfmt --check` rejects such a message, and it is a translator's slip worth a
    /// second look.
    ///
    /// A message whose source is a printf format is flagged as gettext flags it
    /// (`objc-format` when it has `%@`, as `xgettext` flags Objective-C, else `c-format`), so
    /// that `msgfmt --check` checks the translator's conversions; a translation in the files
    /// whose conversions already disagree with the source's (lint's `placeholder-mismatch`,
    /// `percent-sign` or `length-modifier`) is `fuzzy` too, for the translator to fix.
    private static func flags(
        _ units: [TranslationUnit], sources: [String], singleIntegerCategories: Set<PluralCategory> = []
    ) -> String {
        func edges(_ text: String) -> [Bool] { [text.hasPrefix("\n"), text.hasSuffix("\n")] }
        let isFormat = sources.contains(where: PrintfAgreement.isFormat)
        let plural = units.count > 1 || units.first?.pluralGroup != nil
        let differs = units.contains { unit in
            guard let target = unit.target, !target.isEmpty else { return false }
            if (unit.state ?? .translated) != .translated || sources.contains(where: { edges($0) != edges(target) }) {
                return true
            }
            guard isFormat else { return false }
            guard plural, let category = unit.category else {
                return PrintfAgreement.problem(unit.source, target) != nil
            }
            // msgfmt compares every msgstr[k] with msgid_plural, and lets a form leave the
            // number out only when one integer alone takes it (English `one`, not Russian's:
            // 21 is `one` too, so "1 опция" would say 1 for 21).
            let single = category != .other && singleIntegerCategories.contains(category)
            return PrintfAgreement.problem(sources.last!, target, isForm: single) != nil
        }
        var flags = differs ? ["fuzzy"] : []
        if isFormat {
            flags.append(sources.contains(where: PrintfAgreement.hasObjectConversion) ? "objc-format" : "c-format")
        }
        return flags.isEmpty ? "" : "#, " + flags.joined(separator: ", ") + "\n"
    }

    /// The categories exactly one whole number takes in `language` (English `one`: 1; not
    /// Russian `one`: 1, 21, 31…), checked to 1,000.
    static func singleIntegerCategories(_ language: LanguageTag) -> Set<PluralCategory> {
        let rules = PluralRules.cldr(for: language)
        var counts: [PluralCategory: Int] = [:]
        for number in 0...1000 { counts[rules.category(for: PluralOperands(number)), default: 0] += 1 }
        return Set(counts.filter { $0.value == 1 }.keys)
    }

    private static func comments(
        _ unit: TranslationUnit, _ file: TranslationFile, base: [TranslationUnit], language: LanguageTag
    ) -> String {
        let note = unit.note.map {
            $0.split(separator: "\n", omittingEmptySubsequences: false).map { "#. \($0)\n" }.joined()
        }
        return (note ?? "")
            + "#. \(TranslationBase.poPrefix)\(TranslationBase.written(base.map(\.target), language: language))\n"
            + "#: \(file.original)\n"
    }

    /// `name "text"`, or `name ""` and one line per `\n` for text of several lines.
    static func field(_ name: String, _ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 2 || (lines.count == 2 && !lines[1].isEmpty) else {
            return "\(name) \"\(escaped(text))\"\n"
        }
        var result = "\(name) \"\"\n"
        for (number, line) in lines.enumerated() where !(number == lines.count - 1 && line.isEmpty) {
            result += "\"\(escaped(String(line)))\(number < lines.count - 1 ? "\\n" : "")\"\n"
        }
        return result
    }

    /// `text` in a PO string literal: C's backslash escapes, other control characters as
    /// three octal digits (`\033`), which `msgfmt --check` reads and which a digit after
    /// them cannot lengthen.
    package static func escaped(_ text: String) -> String {
        TextEscaping.escaped(text, TextEscaping.backslashed) {
            let octal = String($0, radix: 8)
            return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
    }

    /// `text` as a quoted PO string literal on one line (`"a\nb"`).
    package static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    /// One message read back.
    public struct Entry: Sendable, Hashable {
        /// The `msgctxt`, `nil` when the message has none (translate-toolkit's `xliff2po`
        /// writes none, nor does `l10nctl missing --format po`).
        public var context: String?
        /// The `msgid`.
        public var source: String
        /// The `msgid_plural`, `nil` for a message without plural forms.
        public var sourcePlural: String?
        /// `msgstr`, or `msgstr[0]`, `msgstr[1]`… in order.
        public var translations: [String]
        /// Whether the message is marked `#, fuzzy` (gettext's "needs review").
        public var isFuzzy: Bool
        /// The line its `msgctxt` or `msgid` is on.
        public var line: Int
        /// Its `#:` references: the file, or (translate-toolkit's `xliff2po`) the XLIFF id.
        public var references: [String] = []
        /// The hash of its translation when it was exported (``TranslationBase``).
        public var base: String?
        /// Whether the message has `msgid_plural`.
        public var isPlural: Bool { sourcePlural != nil }
        /// How errors name it: its `msgctxt`, else its `msgid` and line.
        public var name: String {
            context.map { "msgctxt \(quoted($0))" } ?? "msgid \(quoted(source)) (line \(line))"
        }
    }

    /// A `.po` file read back: its header's `Language` and `Plural-Forms`, and its messages.
    public struct Contents: Sendable {
        /// The header's `Language`.
        public var language: String?
        /// The header's `Plural-Forms` value (`nplurals=2; plural=(n > 1);`).
        public var pluralForms: String?
        /// The messages, the header left out.
        public var entries: [Entry]
    }

    /// The messages of a `.po` file and its header, read as `msgfmt` reads them: with or
    /// without a byte order mark, with LF or CRLF line ends, with or without a final newline.
    /// - Throws: ``InterchangeError`` naming the line it cannot read.
    public static func parse(_ text: String) throws(InterchangeError) -> Contents {
        var contents = Contents(language: nil, pluralForms: nil, entries: [])
        var fields: [(name: String, value: String)] = []
        var fuzzy = false
        var references: [String] = []
        var base: String?
        var start = 0
        func finish() {
            defer {
                fields = []
                fuzzy = false
                references = []
                base = nil
            }
            guard let msgid = fields.first(where: { $0.name == "msgid" }) else { return }
            let context = fields.first { $0.name == "msgctxt" }?.value
            let strings = fields.filter { $0.name.hasPrefix("msgstr") }.map(\.value)
            if msgid.value.isEmpty, context == nil {
                for line in strings.first?.split(separator: "\n") ?? [] {
                    let pair = line.split(separator: ":", maxSplits: 1)
                    guard pair.count == 2 else { continue }
                    let value = pair[1].trimmingCharacters(in: .whitespaces)
                    switch pair[0].trimmingCharacters(in: .whitespaces) {
                    case "Language" where !value.isEmpty: contents.language = value
                    case "Plural-Forms": contents.pluralForms = value
                    default: break
                    }
                }
                return
            }
            contents.entries.append(
                Entry(
                    context: context, source: msgid.value,
                    sourcePlural: fields.first { $0.name == "msgid_plural" }?.value, translations: strings,
                    isFuzzy: fuzzy, line: start, references: references, base: base))
        }
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // "\r\n" is one Character to Swift: split on scalars so CRLF files read as LF ones.
        let lines = body.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, scalars) in lines.enumerated() {
            let line = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                // A comment starts the next message: its flags are that message's.
                if fields.contains(where: { $0.name.hasPrefix("msgstr") }) { finish() }
                if line.hasPrefix("#,"),
                    line.dropFirst(2).split(separator: ",").contains(where: {
                        $0.trimmingCharacters(in: .whitespaces) == "fuzzy"
                    })
                {
                    fuzzy = true
                }
                if line.hasPrefix("#. " + TranslationBase.poPrefix) {
                    base = String(line.dropFirst(3 + TranslationBase.poPrefix.count))
                }
                if line.hasPrefix("#:") {
                    references += line.dropFirst(2).split(separator: " ").map(String.init)
                }
                continue
            }
            if line.hasPrefix("\"") {
                guard !fields.isEmpty, let value = unquoted(line) else {
                    throw InterchangeError("line \(number + 1): a string continues no field")
                }
                fields[fields.count - 1].value += value
                continue
            }
            guard let space = line.firstIndex(of: " "),
                let value = unquoted(line[space...].trimmingCharacters(in: .whitespaces))
            else { throw InterchangeError("line \(number + 1): expected a keyword and a quoted string") }
            let name = String(line[..<space])
            if name == "msgctxt" || (name == "msgid" && !fields.contains { $0.name == "msgctxt" }),
                fields.contains(where: { $0.name.hasPrefix("msgstr") })
            {
                finish()
            }
            if name == "msgctxt" || (name == "msgid" && fields.isEmpty) { start = number + 1 }
            fields.append((name, value))
        }
        finish()
        return contents
    }

    private static func unquoted(_ text: String) -> String? {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        var result = ""
        var iterator = text.dropFirst().dropLast().unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch iterator.next() {
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "a": result += "\u{7}"
            case "b": result += "\u{8}"
            case "f": result += "\u{C}"
            case "v": result += "\u{B}"
            case let digit? where ("0"..."7").contains(digit):
                var value = digit.value - 48
                var lookahead = iterator
                for _ in 0..<2 {
                    guard let next = lookahead.next(), ("0"..."7").contains(next) else { break }
                    value = value * 8 + next.value - 48
                    iterator = lookahead
                }
                result.unicodeScalars.append(Unicode.Scalar(value) ?? "?")
            case let other?: result.unicodeScalars.append(other)
            case nil: return nil
            }
        }
        return result
    }
}
