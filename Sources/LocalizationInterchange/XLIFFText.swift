/// Strings in XLIFF, including the characters XML 1.0 cannot carry at all, not even as
/// character references: the C0 controls other than tab, line feed and carriage return, and
/// U+FFFE, U+FFFF (real translations have them: IINA's zh-Hant has a U+0018 in a title).
///
/// - In `<source>` and `<target>` such a character is an inline placeholder,
///   `<ph id="cN" ctype="x-ctrl">\U0018</ph>`, which translation tools keep as a protected
///   code, and import turns back into the character.
/// - In an attribute (a unit's `id`, a file's `original`) and in `<note>`, where no element
///   can go, it is written `\U0018` as Apple's `.strings` files escape it; a backslash run
///   that precedes such an escape or a literal `\U` and four hex digits is doubled, so
///   ``decodedAttribute(_:)`` gives every string back exactly.
enum XLIFFText {
    /// The `ctype` of the `<ph>` that stands for one character XML cannot carry.
    static let controlPlaceholderType = "x-ctrl"

    /// Whether XML 1.0 can carry `scalar` (its `Char` production).
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// `\U0018`: the escape of one character XML cannot carry.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\U" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Element text for `<source>` and `<target>`: XML's escapes, carriage returns as a
    /// reference (so line ends survive), the characters XML cannot carry as `<ph>`.
    static func content(_ text: String) -> String {
        var result = ""
        var placeholders = 0
        for scalar in text.unicodeScalars {
            if isXMLCharacter(scalar) {
                result += markup(scalar, attribute: false)
            } else {
                placeholders += 1
                result += "<ph id=\"c\(placeholders)\" ctype=\"\(controlPlaceholderType)\">\(escape(scalar))</ph>"
            }
        }
        return result
    }

    /// An attribute value (or `<note>` text): XML's escapes, quotes, and line breaks and
    /// tabs as references (attribute-value normalization would turn them into spaces); the
    /// characters XML cannot carry as `\U0018`, backslashes before such an escape doubled.
    static func attribute(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            if !isXMLCharacter(scalar) {
                result += escape(scalar)
            } else if scalar == "\\", precedesEscape(scalars, after: index) {
                result += "\\\\"
            } else {
                result += markup(scalar, attribute: true)
            }
        }
        return result
    }

    /// The string ``attribute(_:)`` wrote, from the attribute value an XML parser read.
    static func decodedAttribute(_ value: String) -> String {
        let scalars = Array(value.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\\" else {
                result.append(scalars[index])
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, scalars[end] == "\\" { end += 1 }
            let run = end - index
            guard let code = hexEscape(scalars, at: end) else {
                result.append(contentsOf: scalars[index..<end])
                index = end
                continue
            }
            result.append(contentsOf: repeatElement("\\", count: run / 2))
            if run % 2 == 1, let scalar = Unicode.Scalar(code) {
                result.append(scalar)
                index = end + 5
            } else {
                // A hand-written `\UD800` names no character: kept as written.
                if run % 2 == 1 { result.append("\\") }
                index = end
            }
        }
        return String(result)
    }

    /// The character a `<ph ctype="x-ctrl">`'s text `\U0018` stands for.
    static func decodedPlaceholder(_ text: String) -> Unicode.Scalar? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 6, scalars[0] == "\\", let code = hexEscape(scalars, at: 1) else { return nil }
        return Unicode.Scalar(code)
    }

    private static func markup(_ scalar: Unicode.Scalar, attribute: Bool) -> String {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\r": "&#13;"
        case "\"" where attribute: "&quot;"
        case "\n" where attribute: "&#10;"
        case "\t" where attribute: "&#9;"
        default: String(scalar)
        }
    }

    /// Whether the backslash at `index` starts a run followed by `U` and four hex digits, or
    /// by a character that is written as such an escape.
    private static func precedesEscape(_ scalars: [Unicode.Scalar], after index: Int) -> Bool {
        var cursor = index + 1
        while cursor < scalars.count, scalars[cursor] == "\\" { cursor += 1 }
        guard cursor < scalars.count else { return false }
        return !isXMLCharacter(scalars[cursor]) || hexEscape(scalars, at: cursor) != nil
    }

    /// The code of `U` and four hex digits at `index`.
    private static func hexEscape(_ scalars: [Unicode.Scalar], at index: Int) -> UInt32? {
        guard index + 5 <= scalars.count, scalars[index] == "U" else { return nil }
        let digits = String(String.UnicodeScalarView(scalars[(index + 1)..<(index + 5)]))
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }
}
