/// The placeholder styles a project's strings use, so lint compares the placeholders that
/// are really there and nothing else.
///
/// Apps are not all printf: some number their own placeholders (`%0`, `%1`, replaced by
/// the app, not by `String(format:)`), some use braces (`{0}`, `{name}`). Read as printf,
/// `%0 files` is `%0 f` (a double with a space flag) and `%1 items` is `%1 i` (an integer),
/// so every string would be "wrong" depending on the next word's first letter.
public struct PlaceholderStyles: OptionSet, Sendable, Hashable {
    /// The styles as bits.
    public let rawValue: Int
    /// Creates a set from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// printf conversions as `String(format:)` reads them: `%@`, `%2$d`, `%.2f`, `%#@var@`.
    public static let printf = PlaceholderStyles(rawValue: 1)
    /// The app's own numbered placeholders: `%` and digits not followed by `$` (`%0`, `%1`).
    public static let percentNumber = PlaceholderStyles(rawValue: 2)
    /// Braces around a number or name: `{0}`, `{name}`.
    public static let braces = PlaceholderStyles(rawValue: 4)

    /// The names `--placeholders` takes.
    public static let names: [(name: String, style: PlaceholderStyles)] = [
        ("printf", .printf), ("percent-number", .percentNumber), ("braces", .braces),
    ]

    /// Parses a comma-separated list of ``names``; `nil` for an unknown name.
    public init?(names list: String) {
        var styles: PlaceholderStyles = []
        for name in list.split(separator: ",") {
            guard let style = Self.names.first(where: { $0.name == name })?.style else { return nil }
            styles.insert(style)
        }
        self = styles
    }

    /// The styles `values` (the development language's strings) show: printf always, plus
    /// ``percentNumber`` when some value has `%N` followed by a space, punctuation or the
    /// end (no printf conversion reads that way), plus ``braces`` when some value has
    /// `{N}` or `{name}`.
    public static func detected(in values: some Sequence<String>) -> PlaceholderStyles {
        var styles: PlaceholderStyles = .printf
        for value in values {
            if !styles.contains(.percentNumber), hasBareNumberedPercent(value) { styles.insert(.percentNumber) }
            if !styles.contains(.braces), !braceTokens(in: value).isEmpty { styles.insert(.braces) }
            if styles.contains([.percentNumber, .braces]) { break }
        }
        return styles
    }

    /// Why `translation`'s placeholders cannot replace `original`'s under these styles, or
    /// `nil` when they agree.
    public func mismatch(_ original: String, _ translation: String) -> String? {
        var problems: [String] = []
        if contains(.percentNumber) {
            let expected = Self.numberedPercentTokens(in: original).sorted()
            let found = Self.numberedPercentTokens(in: translation).sorted()
            if expected != found { problems.append(Self.describe("placeholders", expected, found)) }
        }
        if contains(.braces) {
            let expected = Self.braceTokens(in: original).sorted()
            let found = Self.braceTokens(in: translation).sorted()
            if expected != found { problems.append(Self.describe("placeholders", expected, found)) }
        }
        if contains(.printf), !Self.isShownAsIs(original),
            let problem = FormatSpecifier.signatureMismatch(printfText(original), printfText(translation))
        {
            problems.append(problem)
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Why a plural form's printf placeholders conflict with the development language's,
    /// or `nil` when they fit one of `originals` (its form of the same category, its
    /// `other`): every argument the form takes must be one the original takes, of the
    /// same type. A form may leave an argument out (`one` = "a file", as Apple allows).
    public func formMismatch(_ originals: [String], _ form: String) -> String? {
        guard contains(.printf), !originals.isEmpty else { return nil }
        let found = FormatSpecifier.argumentKinds(of: FormatSpecifier.parse(printfText(form)))
        let candidates = originals.map { FormatSpecifier.argumentKinds(of: FormatSpecifier.parse(printfText($0))) }
        if candidates.contains(where: { expected in found.allSatisfy { expected[$0.key] == $0.value } }) {
            return nil
        }
        return "format specifiers differ: expected arguments within [\(FormatSpecifier.describe(candidates[0]))], "
            + "found [\(FormatSpecifier.describe(found))]"
    }

    /// Whether `original` cannot be a format string: it has a prose percent (`% of screen`)
    /// and no conversion. Formatting would read that `%` as a conversion (`% o`) and print
    /// an argument in its place, so the text is only ever shown as it is (a menu title), and
    /// so is its translation: a Hungarian `%-a a kijelzőnek` ("its percent of the screen")
    /// is a suffixed percent sign, not the `%-a` conversion printf would read.
    static func isShownAsIs(_ original: String) -> Bool {
        let prose = removingProsePercents(original)
        return prose != original && FormatSpecifier.parse(prose).isEmpty
    }

    /// `text` as printf reads it here: without the app's own `%N` (when that style is on)
    /// and without prose percents.
    private func printfText(_ text: String) -> String {
        Self.removingProsePercents(contains(.percentNumber) ? Self.removingNumberedPercents(text) : text)
    }

    private static func describe(_ what: String, _ expected: [String], _ found: [String]) -> String {
        func list(_ tokens: [String]) -> String { tokens.isEmpty ? "none" : tokens.joined(separator: " ") }
        return "\(what) differ: expected [\(list(expected))], found [\(list(found))]"
    }

    /// `%N` tokens (digits not followed by `$`), as written.
    static func numberedPercentTokens(in text: String) -> [String] {
        numberedPercentRanges(in: text).map { String(text.unicodeScalars[$0.range]) }
    }

    static func removingNumberedPercents(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var copied = text.unicodeScalars.startIndex
        for token in numberedPercentRanges(in: text) {
            result += text.unicodeScalars[copied..<token.range.lowerBound]
            copied = token.range.upperBound
        }
        result += text.unicodeScalars[copied...]
        return String(result)
    }

    /// `text` without the `%` of a percent sign written in prose: `%`, optional digits, spaces,
    /// then a word (two letters). printf would read `% of screen` as `% o` (octal with a space
    /// flag) and `50 % done` as `% d`; no format string is written that way.
    static func removingProsePercents(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            // `%%` is a literal percent, as the formatter reads it: what follows is text.
            if scalars[index] == "%", index + 1 < scalars.count, scalars[index + 1] == "%" {
                result.append(contentsOf: scalars[index...(index + 1)])
                index += 2
                continue
            }
            if scalars[index] == "%" {
                var cursor = index + 1
                while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) { cursor += 1 }
                let spaces = cursor
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                if cursor > spaces, cursor + 1 < scalars.count, scalars[cursor].properties.isAlphabetic,
                    scalars[cursor + 1].properties.isAlphabetic
                {
                    index += 1
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }

    /// Whether `text` has a `%N` that printf would not read as the start of a conversion.
    static func hasBareNumberedPercent(_ text: String) -> Bool {
        numberedPercentRanges(in: text).contains { $0.bare }
    }

    /// Every `%` followed by digits and no `$`; `bare` when what follows is the end, a
    /// space, or punctuation other than printf's `.`, `'`, `-`, `+`, `#`, `*`.
    private static func numberedPercentRanges(in text: String) -> [(range: Range<String.Index>, bare: Bool)] {
        let scalars = text.unicodeScalars
        var result: [(Range<String.Index>, Bool)] = []
        FormatPlaceholders.forEachPercent(in: scalars) { start, digitsStart in
            var cursor = digitsStart
            while cursor < scalars.endIndex, ("0"..."9").contains(scalars[cursor]) {
                cursor = scalars.index(after: cursor)
            }
            if cursor > digitsStart, cursor == scalars.endIndex || scalars[cursor] != "$" {
                let next = cursor < scalars.endIndex ? scalars[cursor] : nil
                let bare =
                    next.map {
                        $0.properties.isWhitespace
                            || ($0.properties.generalCategory.isPunctuation && !".'-+#*".unicodeScalars.contains($0))
                    } ?? true
                result.append((start..<cursor, bare))
            }
            return cursor == digitsStart ? digitsStart : cursor
        }
        return result
    }

    /// `{0}`, `{name}`: braces around letters, digits and `_` only.
    static func braceTokens(in text: String) -> [String] {
        var tokens: [String] = []
        var current: String?
        for scalar in text.unicodeScalars {
            if scalar == "{" {
                current = ""
            } else if scalar == "}", let name = current {
                if !name.isEmpty { tokens.append("{\(name)}") }
                current = nil
            } else if current != nil {
                if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
                    current!.unicodeScalars.append(scalar)
                } else {
                    current = nil
                }
            }
        }
        return tokens
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isPunctuation: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            true
        default: false
        }
    }
}
