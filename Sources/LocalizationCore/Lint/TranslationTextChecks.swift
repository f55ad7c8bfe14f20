/// The checks Weblate and `pofilter` make on a translation's text against its source:
/// whitespace at the ends, line breaks, double spaces, URLs, HTML tags and integer lengths,
/// and whether the text was left as the source wrote it. Each answers why the translation
/// differs, or `nil`.
enum TranslationTextChecks {
    /// Spaces and tabs (not line breaks) that start or end a text.
    private static func isEdgeSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\u{00A0}"
    }

    /// Fullwidth punctuation (`：`, `。`, `）`) that takes the place of a space after it: a
    /// Chinese or Japanese `名称：` translates `Name: ` without its space, as it should.
    private static func absorbsSpace(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else { return false }
        return (0x3000...0x303F).contains(value) || (0xFF00...0xFF65).contains(value)
    }

    /// Units and signs an app writes right after a number (`5` + `s`, `50` + `%`).
    private static let unitsAfterNumbers: Set<String> = [
        "%", "‰", "°", "s", "ms", "min", "h", "×", "px", "pt", "dB", "Hz", "kHz", "fps", "kB", "KB", "MB", "GB",
    ]

    /// Whether `target` adds one space (or no-break space) before a unit the source starts
    /// with (`s (exact)` → ` s (točno)`, `%` → ` %`): languages whose typography spaces a
    /// number from its unit (Czech, Croatian, Ukrainian, French) write it so on purpose.
    private static func startsWithSpacedUnit(_ source: [Unicode.Scalar], _ target: [Unicode.Scalar]) -> Bool {
        guard target.count > 1, target[0] == " " || target[0] == "\u{00A0}", !isEdgeSpace(target[1]),
            target[1] != "\n"
        else { return false }
        let word = source.prefix { $0 != " " && $0 != "(" && $0 != "\n" }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: word)
        return unitsAfterNumbers.contains(String(text))
    }

    /// Leading or trailing whitespace that differs: a space (or tab), or a line break, at
    /// one end of one text and not of the other.
    static func edgeWhitespace(_ original: String, _ translation: String) -> String? {
        guard !original.isEmpty, !translation.isEmpty else { return nil }
        let (source, target) = (Array(original.unicodeScalars), Array(translation.unicodeScalars))
        var problems: [String] = []
        func compare(_ end: String, _ sourceEdge: Unicode.Scalar, _ targetEdge: Unicode.Scalar, absorbed: Bool) {
            if isEdgeSpace(sourceEdge) != isEdgeSpace(targetEdge), !absorbed {
                problems.append(
                    isEdgeSpace(sourceEdge)
                        ? "the development language's text \(end)s with a space and this one does not"
                        : "it \(end)s with a space the development language's text does not")
            }
            if (sourceEdge == "\n") != (targetEdge == "\n") {
                problems.append(
                    sourceEdge == "\n"
                        ? "the development language's text \(end)s with a line break and this one does not"
                        : "it \(end)s with a line break the development language's text does not")
            }
        }
        compare("start", source[0], target[0], absorbed: startsWithSpacedUnit(source, target))
        // `Name: ` → `名称：`: the fullwidth colon carries the space.
        compare(
            "end", source[source.count - 1], target[target.count - 1],
            absorbed: isEdgeSpace(source[source.count - 1]) && absorbsSpace(target.last))
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// A different count of line breaks (`\n`).
    static func newlineCount(_ original: String, _ translation: String) -> String? {
        let expected = original.unicodeScalars.count { $0 == "\n" }
        let found = translation.unicodeScalars.count { $0 == "\n" }
        guard expected != found, !translation.isEmpty else { return nil }
        return "\(found) line break\(found == 1 ? "" : "s") where the development language's text has \(expected)"
    }

    /// Two spaces in a row in the translation, none in the source.
    static func doubleSpace(_ original: String, _ translation: String) -> String? {
        guard translation.contains("  "), !original.contains("  ") else { return nil }
        return "two spaces in a row, where the development language's text has none"
    }

    /// URLs (`http://`, `https://`, `mailto:`) that differ, as a multiset.
    static func urlMismatch(_ original: String, _ translation: String) -> String? {
        let expected = urls(in: original).sorted()
        let found = urls(in: translation).sorted()
        guard expected != found, !translation.isEmpty else { return nil }
        let missing = expected.filter { !found.contains($0) }
        let added = found.filter { !expected.contains($0) }
        var parts: [String] = []
        if !missing.isEmpty { parts.append("lacks \(missing.joined(separator: " "))") }
        if !added.isEmpty { parts.append("has \(added.joined(separator: " ")) instead") }
        if parts.isEmpty {
            parts.append("has \(found.count) URLs where the development language's text has \(expected.count)")
        }
        return "URLs differ: it " + parts.joined(separator: ", ")
    }

    /// HTML tags (by name, opening and closing, as a multiset) that differ.
    static func htmlTagMismatch(_ original: String, _ translation: String) -> String? {
        let expected = htmlTags(in: original).sorted()
        guard !expected.isEmpty || translation.contains("<") else { return nil }
        let found = htmlTags(in: translation).sorted()
        guard expected != found, !translation.isEmpty else { return nil }
        func list(_ tags: [String]) -> String { tags.isEmpty ? "none" : tags.joined(separator: " ") }
        return "HTML tags differ: expected [\(list(expected))], found [\(list(found))]"
    }

    /// Integer conversions of one argument whose length modifiers differ (`%d` for `%ld`):
    /// the argument is read at another size than it is passed. Arguments whose kind differs
    /// are `placeholder-mismatch`'s.
    static func lengthModifier(_ original: String, _ translation: String) -> String? {
        let expected = integerLengths(original)
        let found = integerLengths(translation)
        let differing = expected.keys.sorted().compactMap { position -> String? in
            guard let written = found[position], let wanted = expected[position], written.length != wanted.length
            else { return nil }
            return "\(written.text) where the development language has \(wanted.text)"
        }
        guard !differing.isEmpty else { return nil }
        return differing.joined(separator: ", ") + " (argument sizes differ)"
    }

    /// Each integer argument's length modifier and specifier, by position.
    private static func integerLengths(_ text: String) -> [Int: (length: String, text: String)] {
        var result: [Int: (length: String, text: String)] = [:]
        var next = 1
        for specifier in FormatSpecifier.parse(PlaceholderStyles.removingProsePercents(text))
        where specifier.kind != .pluralVariable {
            let position = specifier.position ?? next
            next = position + 1
            // `q` is Apple's `ll`.
            let length = specifier.lengthModifier == "q" ? "ll" : specifier.lengthModifier
            if specifier.kind == .integer { result[position] = (length, specifier.text) }
        }
        return result
    }

    /// Whether `translation` is `original` unchanged although `original` has words to
    /// translate: at least `minimumWords` words of two or more letters beyond its
    /// placeholders, URLs and tags, not written in capitals alone (`OK`, `URL`, `HDR` are the
    /// same in most languages), and not a copyright notice (`©`: legal text most projects keep
    /// as written, as Weblate's check does).
    static func isUnchanged(_ original: String, _ translation: String, minimumWords: Int = 1) -> Bool {
        guard translation == original, !original.contains("©") else { return false }
        return wordsToTranslate(in: original) >= max(1, minimumWords)
    }

    /// Whether `translation` writes `original`'s words in its own spelling: the same letters,
    /// with hyphens for spaces (or the other way round) or direction marks added or removed
    /// (German `User-Agent:`, Dutch `HTTP-proxy:`, Hebrew `\u{200F}User agent:`). A change of
    /// letter case alone is not one: the development language re-casing its texts (`Auto load:`
    /// → `Auto Load:`) leaves stale copies differing just so.
    static func isRespelling(_ translation: String, of original: String) -> Bool {
        func folded(_ text: String) -> String {
            let marks: Set<Unicode.Scalar> = ["\u{200E}", "\u{200F}", "\u{061C}"]
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars where !marks.contains(scalar) {
                scalars.append(scalar == "-" ? " " : scalar)
            }
            return String(scalars).lowercased()
        }
        return folded(translation) == folded(original) && translation.lowercased() != original.lowercased()
    }

    /// Whether `text` is short enough to be a term or a label a language may keep as it is:
    /// at most two words to translate (``translatableWords(in:)``: `Help`, `User agent:`,
    /// `Dolby Vision`, `IINA Help`) and no sentence punctuation (a `.`, `!` or `?` ending it or
    /// followed by a space). A sentence is never a term: `Failed to load the page.`.
    static func isTerm(_ text: String) -> Bool {
        guard wordsToTranslate(in: text) <= 2 else { return false }
        var scalars = Array(text.unicodeScalars)
        while scalars.last?.properties.isWhitespace == true { scalars.removeLast() }
        let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", "。", "！", "？"]
        for (index, scalar) in scalars.enumerated() where sentenceEnds.contains(scalar) {
            // `...` is an ellipsis (`Open...`), not a full stop.
            let inDots = scalar == "." && scalars[max(0, index - 1)...].prefix(3).count { $0 == "." } > 1
            if !inDots, index == scalars.count - 1 || scalars[index + 1].properties.isWhitespace { return false }
        }
        return true
    }

    /// How many words of two or more letters with a lowercase letter `text` has, outside
    /// placeholders, URLs and HTML tags.
    static func wordsToTranslate(in text: String) -> Int {
        translatableWords(in: text).count
    }

    /// The words of two or more letters with a lowercase letter in `text`, in order, outside
    /// placeholders, URLs and HTML tags: what a translator translates.
    static func translatableWords(in text: String) -> [String] {
        var prose = ""
        for segment in FormatSpecifier.segments(PlaceholderStyles.removingNumberedPercents(text)) {
            if case .literal(let literal) = segment { prose += literal + " " }
        }
        for url in urls(in: prose) { prose = prose.replacing(url, with: " ") }
        // `{0}`, `{name}`, `${content}`: placeholders of other styles, not words.
        prose = prose.replacing(/\$?\{[^{}]*\}/, with: " ")
        // Addresses, handles, domains and paths are written as they are in every language:
        // `another@follower.social`, `@john@no-such.account`, `iina.io`, `/path/to/folder`.
        // (Split by hand: a regular expression here costs lint most of its time on IINA.)
        if prose.unicodeScalars.contains(where: { $0 == "@" || $0 == "." || $0 == "/" }) {
            prose = prose.split(whereSeparator: \.isWhitespace).filter { !isAddressOrPath($0) }.joined(separator: " ")
        }
        var word: [Unicode.Scalar] = []
        var insideTag = false
        var words: [String] = []
        for scalar in prose.unicodeScalars + [" "] {
            if scalar == "<" { insideTag = true }
            if insideTag {
                if scalar == ">" { insideTag = false }
                continue
            }
            if scalar.properties.isAlphabetic {
                word.append(scalar)
                continue
            }
            if word.count >= 2, word.contains(where: \.properties.isLowercase) {
                words.append(String(String.UnicodeScalarView(word)))
            }
            word = []
        }
        return words
    }

    /// Whether `token` (no spaces) is an address, handle, domain or path rather than words:
    /// it has an `@`, a `.` between two letters or digits, or starts with `/` or `~/`.
    private static func isAddressOrPath(_ token: Substring) -> Bool {
        let scalars = Array(token.unicodeScalars)
        if scalars.first == "/" || token.hasPrefix("~/") || scalars.contains("@") { return true }
        let alphanumeric = { (scalar: Unicode.Scalar) in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        return scalars.indices.dropFirst().dropLast().contains {
            scalars[$0] == "." && alphanumeric(scalars[$0 - 1]) && alphanumeric(scalars[$0 + 1])
        }
    }

    /// `http://…`, `https://…` and `mailto:…` up to a space, quote or closing bracket, with
    /// trailing sentence punctuation left out.
    static func urls(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var found: [String] = []
        var index = 0
        let schemes = ["https://", "http://", "mailto:"].map { Array($0.unicodeScalars) }
        while index < scalars.count {
            guard let scheme = schemes.first(where: { scalars[index...].starts(with: $0) }),
                index == 0 || !scalars[index - 1].properties.isAlphabetic
            else {
                index += 1
                continue
            }
            var end = index + scheme.count
            while end < scalars.count, !" \t\n\"'<>()[]{}“”「」，。".unicodeScalars.contains(scalars[end]) {
                end += 1
            }
            var last = end
            while last > index + scheme.count, ".,;:!?".unicodeScalars.contains(scalars[last - 1]) { last -= 1 }
            if last > index + scheme.count {
                found.append(String(String.UnicodeScalarView(scalars[index..<last])))
            }
            index = end
        }
        return found
    }

    /// HTML's element names: a `<none>` or `<key>` in prose is text, not a tag.
    private static let htmlElements: Set<String> = [
        "a", "abbr", "b", "big", "blockquote", "br", "code", "del", "div", "em", "font", "h1", "h2", "h3", "h4",
        "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "small", "span",
        "strike", "strong", "sub", "sup", "table", "td", "th", "tr", "tt", "u", "ul",
    ]

    /// `<b>`, `</b>`, `<br/>`, `<a href=…>` as `b`, `/b`, `br`, `a`: tags of HTML elements.
    static func htmlTags(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var tags: [String] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "<" else {
                index += 1
                continue
            }
            var cursor = index + 1
            let closing = cursor < scalars.count && scalars[cursor] == "/"
            if closing { cursor += 1 }
            var name = ""
            while cursor < scalars.count, scalars[cursor].isASCIILetter || ("0"..."9").contains(scalars[cursor]) {
                name.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
            var end = cursor
            while end < scalars.count, scalars[end] != ">", scalars[end] != "<" { end += 1 }
            let lowered = name.lowercased()
            let boundary = cursor < scalars.count && " />\t\n".unicodeScalars.contains(scalars[cursor])
            if end < scalars.count, scalars[end] == ">", boundary, htmlElements.contains(lowered) {
                tags.append((closing ? "/" : "") + lowered)
                index = end + 1
            } else {
                index += 1
            }
        }
        return tags
    }
}

extension Unicode.Scalar {
    /// `A`–`Z` or `a`–`z`.
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
