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
        var result: [FormatSpecifier] = []
        var scalars = Array(string.unicodeScalars)[...]
        while let percent = scalars.firstIndex(of: "%") {
            scalars = scalars[(percent + 1)...]
            if let specifier = parseOne(&scalars) {
                result.append(specifier)
            }
        }
        return result
    }

    /// The argument kinds by position, as the arguments list must supply them; conflicting or
    /// missing positions are reported by ``signatureMismatch(_:_:)``.
    public static func argumentKinds(of specifiers: [FormatSpecifier]) -> [Int: ArgumentKind] {
        var kinds: [Int: ArgumentKind] = [:]
        var next = 1
        for specifier in specifiers where specifier.kind != .pluralVariable {
            let position = specifier.position ?? next
            next = position + 1
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
        func describe(_ kinds: [Int: ArgumentKind]) -> String {
            kinds.isEmpty ? "none" : kinds.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }.joined(separator: ", ")
        }
        return "format specifiers differ: expected arguments [\(describe(expected))], found [\(describe(actual))]"
    }

    /// Parses after a `%`, leaving `scalars` after the conversion; `nil` for `%%` or an
    /// incomplete specifier.
    private static func parseOne(_ scalars: inout ArraySlice<Unicode.Scalar>) -> FormatSpecifier? {
        var text = "%"
        func take() -> Unicode.Scalar? {
            guard let first = scalars.first else { return nil }
            scalars = scalars.dropFirst()
            text.unicodeScalars.append(first)
            return first
        }
        guard let first = scalars.first else { return nil }
        if first == "%" {
            _ = take()
            return nil
        }
        if first == "#", scalars.dropFirst().first == "@" {
            _ = take()
            _ = take()
            var name = ""
            while let next = take(), next != "@" { name.unicodeScalars.append(next) }
            return FormatSpecifier(
                text: text, position: nil, kind: .pluralVariable, lengthModifier: "", conversion: name,
                flagsWidthPrecision: "")
        }
        // Position: digits followed by `$`.
        var position: Int?
        var digits = ""
        var probe = scalars
        while let next = probe.first, next.properties.numericType != nil, next.isASCII {
            digits.unicodeScalars.append(next)
            probe = probe.dropFirst()
        }
        if !digits.isEmpty, probe.first == "$", let number = Int(digits), number > 0 {
            position = number
            for _ in 0...digits.unicodeScalars.count { _ = take() }
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
