/// One printf-style conversion in a localized string (`%@`, `%2$d`, `%.2f`, `%#@files@`).
///
/// Translations must keep the development language's specifiers: a `%d` where the
/// original has `%@` would format the wrong argument. ``FormatSpecifier/parse(_:)`` finds
/// them so lint can compare and formatting can check before it runs.
public struct FormatSpecifier: Sendable, Hashable, CustomStringConvertible {
    /// What kind of argument a conversion consumes.
    public enum ArgumentKind: String, Sendable, Hashable {
        /// `%@`: an object (a String in Swift).
        case object
        /// `%d %i %u %o %x %X %ld %lld %zd…`: an integer.
        case integer
        /// `%f %e %g %a` and their capitals: a floating-point number.
        case double
        /// `%s`: a C string.
        case cString
        /// `%c %C`: a character.
        case character
        /// `%p`: a pointer.
        case pointer
        /// `%#@name@`: a `.stringsdict` variable, replaced before formatting.
        case pluralVariable
    }

    /// The specifier as written, e.g. `%1$@` or `%.2f`.
    public var text: String
    /// The explicit 1-based argument position (`%2$@` → 2), if any.
    public var position: Int?
    /// The argument kind.
    public var kind: ArgumentKind
    /// The length modifier (`l`, `ll`, `h`, `z`…), if any.
    public var lengthModifier: String
    /// The conversion character (`@`, `d`, `f`…); the variable name for `%#@name@`.
    public var conversion: String
    /// Flags, width and precision as written (`-08.2`), for formatting.
    public var flagsWidthPrecision: String

    /// The specifier as written.
    public var description: String { text }

    /// Every conversion in `string`, in order; `%%` is not one.
    public static func parse(_ string: String) -> [FormatSpecifier] {
        segments(string).compactMap { segment in
            if case .specifier(let specifier) = segment { return specifier }
            return nil
        }
    }

    /// `string` cut into literal text and conversions, in order: joining every segment's
    /// ``FormatSegment/text`` gives `string` back. `%%` is a ``FormatSegment/percent``;
    /// a `%` that starts no valid conversion stays literal text.
    public static func segments(_ string: String) -> [FormatSegment] {
        var result: [FormatSegment] = []
        var literal = ""
        var scalars = Array(string.unicodeScalars)[...]
        while let first = scalars.first {
            guard first == "%" else {
                literal.unicodeScalars.append(first)
                scalars = scalars.dropFirst()
                continue
            }
            scalars = scalars.dropFirst()
            if scalars.first == "%" {
                scalars = scalars.dropFirst()
                if !literal.isEmpty { result.append(.literal(literal)) }
                literal = ""
                result.append(.percent)
                continue
            }
            let before = scalars
            if let specifier = parseOne(&scalars) {
                if !literal.isEmpty { result.append(.literal(literal)) }
                literal = ""
                result.append(.specifier(specifier))
            } else {
                literal += "%"
                scalars = before
            }
        }
        if !literal.isEmpty { result.append(.literal(literal)) }
        return result
    }

    /// This specifier at argument position `position`: `%d` → `%2$d`.
    public func at(position: Int) -> FormatSpecifier {
        var copy = self
        copy.position = position
        let body = text.dropFirst(1 + (self.position.map { String($0).count + 1 } ?? 0))
        copy.text = "%\(position)$" + body
        return copy
    }

    /// The argument kinds by position, as the arguments list must supply them; conflicting or
    /// missing positions are reported by ``signatureMismatch(_:_:)``.
    public static func argumentKinds(of specifiers: [FormatSpecifier]) -> [Int: ArgumentKind] {
        var kinds: [Int: ArgumentKind] = [:]
        // Conversions without a position take the next argument counted among themselves, as
        // CoreFoundation numbers them: in `%2$@ %d` the `%d` is argument 1.
        var next = 1
        for specifier in specifiers where specifier.kind != .pluralVariable {
            let position = specifier.position ?? next
            if specifier.position == nil { next += 1 }
            kinds[position] = specifier.kind
        }
        return kinds
    }

    /// Why `translation`'s specifiers cannot safely replace `original`'s, or `nil` when they
    /// take the same arguments (order may differ through positions: `%1$@ %2$d` ≡ `%2$d %1$@`).
    public static func signatureMismatch(_ original: String, _ translation: String) -> String? {
        let expected = argumentKinds(of: parse(original))
        let actual = argumentKinds(of: parse(translation))
        if expected == actual { return nil }
        return "format specifiers differ: expected arguments [\(describe(expected))], found [\(describe(actual))]"
    }

    /// `1: integer, 2: object`, or `none`: argument kinds by position, for a message.
    static func describe(_ kinds: [Int: ArgumentKind]) -> String {
        kinds.isEmpty
            ? "none"
            : kinds.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }.joined(separator: ", ")
    }

    /// Parses after a `%`, leaving `scalars` after the conversion; `nil` for an incomplete
    /// or unknown specifier (what it read is then left to the caller to restore).
    private static func parseOne(_ scalars: inout ArraySlice<Unicode.Scalar>) -> FormatSpecifier? {
        var text = "%"
        func take() -> Unicode.Scalar? {
            guard let first = scalars.first else { return nil }
            scalars = scalars.dropFirst()
            text.unicodeScalars.append(first)
            return first
        }
        // Position: digits followed by `$`.
        var position: Int?
        var digits = ""
        var probe = scalars
        while let next = probe.first, ("0"..."9").contains(next) {
            digits.unicodeScalars.append(next)
            probe = probe.dropFirst()
        }
        if !digits.isEmpty, probe.first == "$", digits.count < 5, let number = Int(digits), number > 0 {
            position = number
            for _ in 0...digits.unicodeScalars.count { _ = take() }
        }
        if scalars.first == "#", scalars.dropFirst().first == "@" {
            _ = take()
            _ = take()
            var name = ""
            while let next = take(), next != "@" {
                if next.properties.isWhitespace { return nil }
                name.unicodeScalars.append(next)
            }
            guard text.unicodeScalars.last == "@", !name.isEmpty else { return nil }
            return FormatSpecifier(
                text: text, position: position, kind: .pluralVariable, lengthModifier: "", conversion: name,
                flagsWidthPrecision: "")
        }
        var flags = ""
        while let next = scalars.first, "-+ #0'123456789.*".unicodeScalars.contains(next) {
            flags.unicodeScalars.append(take()!)
        }
        var length = ""
        while let next = scalars.first, "hlqLzjt".unicodeScalars.contains(next) {
            length.unicodeScalars.append(take()!)
        }
        guard let conversion = take() else { return nil }
        let kind: ArgumentKind
        switch conversion {
        case "@": kind = .object
        case "d", "i", "u", "o", "x", "X", "D", "U", "O": kind = .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": kind = .double
        case "s", "S": kind = .cString
        case "c", "C": kind = .character
        case "p": kind = .pointer
        default: return nil
        }
        return FormatSpecifier(
            text: text, position: position, kind: kind, lengthModifier: length,
            conversion: String(conversion), flagsWidthPrecision: flags)
    }
}
