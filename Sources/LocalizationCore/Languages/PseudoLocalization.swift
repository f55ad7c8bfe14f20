/// Pseudo-languages derived from the development language, for testing a program's
/// layout before any translation exists (the tags Android and Chrome use):
///
/// - `en-XA`: every letter accented and the text 30–40 % longer, in brackets, so clipped,
///   concatenated or hard-coded strings stand out: `[Ḿûļţîļîñĝûåļîžåţîöñ one two]`.
/// - `ar-XB`: every word wrapped in right-to-left marks, so the layout flips as it would
///   for Arabic or Hebrew.
///
/// Format specifiers (`%@`, `%2$d`, `%.2f`, `%#@files@`) and `%%` pass through unchanged,
/// so a pseudo-string formats with the same arguments as its original.
///
/// ```swift
/// PseudoLocalization.accented.transform("Multilingualization")  // [Ḿûļţîļîñĝûåļîžåţîöñ one two]
/// ```
public enum PseudoLocalization: String, Sendable, Hashable, CaseIterable {
    /// `en-XA`: accented and expanded.
    case accented = "en-XA"
    /// `ar-XB`: right-to-left.
    case bidirectional = "ar-XB"

    /// The pseudo-language `tag` names, if any.
    public init?(_ tag: LanguageTag) {
        guard tag.script == nil, tag.variants.isEmpty else { return nil }
        self.init(rawValue: tag.identifier)
    }

    /// The tag of this pseudo-language.
    public var tag: LanguageTag {
        switch self {
        case .accented: LanguageTag(language: "en", region: "XA")
        case .bidirectional: LanguageTag(language: "ar", region: "XB")
        }
    }

    /// `text` in this pseudo-language, its format specifiers intact.
    public func transform(_ text: String) -> String {
        let (body, letters) = marked(text)
        switch self {
        case .accented: return "[" + body + Self.padding(forLength: letters) + "]"
        case .bidirectional: return body
        }
    }

    /// `entry` in this pseudo-language: its value, plural forms and device variants.
    public func transform(_ entry: TableEntry) -> TableEntry {
        var copy = entry
        copy.value = transform(entry.value)
        if var plural = entry.plural {
            // The format is bracketed and padded once; the forms it receives are only
            // marked, so a selected string is not bracketed twice.
            plural.format = transform(plural.format)
            plural.variables = plural.variables.mapValues { variable in
                var variable = variable
                variable.forms = variable.forms.mapValues { marked($0).text }
                return variable
            }
            copy.plural = plural
        }
        copy.deviceVariants = entry.deviceVariants.mapValues(transform)
        return copy
    }

    /// The literal text of `text` accented or wrapped in RTL marks, specifiers untouched,
    /// and how many letters and digits it has.
    private func marked(_ text: String) -> (text: String, letters: Int) {
        var result = ""
        var letters = 0
        for segment in FormatSpecifier.segments(text) {
            guard case .literal(let literal) = segment else {
                result += segment.text
                continue
            }
            switch self {
            case .accented:
                for character in literal {
                    if character.isLetter || character.isNumber { letters += 1 }
                    result.append(Self.accents[character] ?? character)
                }
            case .bidirectional:
                var word = ""
                for character in literal {
                    if character.isWhitespace {
                        result += Self.rightToLeft(word) + String(character)
                        word = ""
                    } else {
                        word.append(character)
                    }
                }
                result += Self.rightToLeft(word)
            }
        }
        return (result, letters)
    }

    /// Words appended until the text is at least 30 % longer (a German translation is
    /// typically that much longer than English).
    static let paddingWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    static func padding(forLength length: Int) -> String {
        var padding = ""
        var index = 0
        while padding.count * 10 < length * 3 {
            padding += " " + paddingWords[index % paddingWords.count]
            index += 1
        }
        return padding
    }

    /// RLM, RLO, the word, PDF, RLM: displayed right to left as a whole.
    private static func rightToLeft(_ word: String) -> String {
        word.isEmpty ? "" : "\u{200F}\u{202E}" + word + "\u{202C}\u{200F}"
    }

    /// A look-alike accented letter for each ASCII letter.
    static let accents: [Character: Character] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let accented = Array("åƀçðéƒĝĥîĵķļḿñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻḾÑÖÞǪŔŠŢÛṼŴẊÝŽ")
        return Dictionary(uniqueKeysWithValues: zip(plain, accented))
    }()
}
