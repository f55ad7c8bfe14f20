/// Text taken from outside (file and directory names, keys) made safe for a line a person
/// reads: a log line, `l10nctl`'s text output.
///
/// A file name may hold anything but `/` and NUL: an escape sequence that recolours or
/// clears the operator's terminal, a newline that forges a second log line, bytes that are
/// not UTF-8 (decoded to U+FFFD, which would hide that the name is not the one printed).
/// Each of those is written as a visible escape instead, so one line stays one line and
/// what is shown says what is there. JSON output needs none of this: its encoder escapes.
public enum DisplayText {
    /// `text` with control characters (C0, DEL, C1), bidirectional overrides and U+FFFD
    /// written as `\n`, `\t`, `\r`, `\e` or `\u{…}`, and `\` as `\\` only when something
    /// else was escaped (so an ordinary path prints unchanged). Costs one pass over the
    /// UTF-8 bytes when nothing needs escaping.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{1B}": result += "\\e"
            case _ where needsEscape(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `bytes` (a file name as the system has it) as ``escaped(_:)`` writes text, every byte
    /// that is not part of valid UTF-8 written `\xE9`: what the name really is, where
    /// decoding would show U+FFFD for any bad byte alike.
    public static func escaped(bytes: [UInt8]) -> String {
        var result = ""
        var valid = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                valid.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                result += escaped(String(valid))
                valid = String.UnicodeScalarView()
                for byte in bytes[offset..<offset + length] {
                    result += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
                offset += length
            case .emptyInput:
                return result + escaped(String(valid))
            }
        }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides and isolates: they reorder what follows.
        case 0x202A...0x202E, 0x2066...0x2069: true
        // The replacement character: a name that was not UTF-8.
        case 0xFFFD: true
        default: false
        }
    }
}
