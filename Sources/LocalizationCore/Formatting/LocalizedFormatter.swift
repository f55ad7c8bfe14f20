public import Foundation

/// Applies printf-style arguments to a localized format in Swift, checking every
/// conversion against its argument first, so a translation that asks for the wrong
/// arguments fails with a message instead of crashing (`String(format:)` with `%@` for an
/// `Int` reads garbage or traps).
///
/// Supported: `%@ %d %i %ld %lld %u %x %o %f %.2f %e %g %s %c %%` and positions (`%2$@`).
/// Integers are formatted as written; floating-point conversions use the language's
/// decimal separator (`1,5` in French), as `String.localizedStringWithFormat` does.
///
/// ```swift
/// try LocalizedFormatter.format("%2$@ has %1$d files", [3, "Ann"], locale: Locale(identifier: "en"))
/// // "Ann has 3 files"
/// ```
public enum LocalizedFormatter {
    /// Formats `format` with `arguments`, or throws a ``FormatMismatch`` when a conversion
    /// has no argument, or one of a kind it cannot format. Extra arguments are ignored, as
    /// printf ignores them.
    public static func format(
        _ format: String, _ arguments: [any CVarArg], locale: Locale = Locale(identifier: "en_US_POSIX")
    ) throws(FormatMismatch) -> String {
        var result = ""
        var next = 1
        for segment in FormatSpecifier.segments(format) {
            switch segment {
            case .literal(let text): result += text
            case .percent: result += "%"
            case .specifier(let specifier):
                let position = specifier.position ?? next
                next = position + 1
                guard position <= arguments.count else {
                    throw FormatMismatch(
                        format: format,
                        message: "\(specifier) takes argument \(position), but only \(arguments.count) given")
                }
                result += try formatted(arguments[position - 1], as: specifier, locale: locale, format: format)
            }
        }
        return result
    }

    /// Formats what can be formatted and leaves a conversion it cannot fill as written:
    /// the last resort, when even the development language's string does not fit.
    public static func formatLeniently(
        _ format: String, _ arguments: [any CVarArg], locale: Locale = Locale(identifier: "en_US_POSIX")
    ) -> String {
        var result = ""
        var next = 1
        for segment in FormatSpecifier.segments(format) {
            guard case .specifier(let specifier) = segment else {
                result += segment == .percent ? "%" : segment.text
                continue
            }
            let position = specifier.position ?? next
            next = position + 1
            if position <= arguments.count,
                let text = try? formatted(arguments[position - 1], as: specifier, locale: locale, format: format)
            {
                result += text
            } else {
                result += specifier.text
            }
        }
        return result
    }

    /// One argument through one conversion, with only the flags, width and precision the
    /// specifier wrote (never `*`, which would read another argument).
    private static func formatted(
        _ argument: any CVarArg, as specifier: FormatSpecifier, locale: Locale, format: String
    ) throws(FormatMismatch) -> String {
        func mismatch(_ expected: String) -> FormatMismatch {
            FormatMismatch(
                format: format,
                message:
                    "\(specifier) expects \(expected), but argument \(specifier.position.map(String.init) ?? "") is \(type(of: argument))"
            )
        }
        let flags = specifier.flagsWidthPrecision
        guard !flags.contains("*") else {
            throw FormatMismatch(format: format, message: "\(specifier): '*' widths are not supported")
        }
        // Foundation traps on a width or precision past Int32 and allocates whatever a large
        // one asks for: a lookup's format comes from a translator's file or a client's key,
        // so either is a way to stop or bloat the daemon. C's minimum for one conversion's
        // output is 4,095 bytes (C11 7.21.6.1); anything wider is an error here.
        guard Self.widthAndPrecisionFit(flags) else {
            throw FormatMismatch(
                format: format,
                message: "\(specifier): a width or precision over \(Self.maximumWidth) is not supported")
        }
        switch specifier.kind {
        case .object:
            return String(describing: argument)
        case .cString:
            guard let text = argument as? String else {
                throw mismatch("a string")
            }
            return text
        case .character:
            if let text = argument as? String, text.count == 1 { return text }
            if let code = integerValue(argument), let scalar = Unicode.Scalar(UInt32(clamping: code)) {
                return String(Character(scalar))
            }
            throw mismatch("a character")
        case .integer:
            guard let value = integerValue(argument) else { throw mismatch("an integer") }
            let cleanFlags = flags.filter { $0 != "'" }
            switch specifier.conversion {
            case "d", "i", "D": return String(format: "%" + cleanFlags + "lld", value)
            case "X": return String(format: "%" + cleanFlags + "llX", UInt64(bitPattern: value))
            default:
                let conversion = specifier.conversion.lowercased()
                return String(format: "%" + cleanFlags + "ll" + conversion, UInt64(bitPattern: value))
            }
        case .double:
            guard let value = doubleValue(argument) else { throw mismatch("a number") }
            // printf's digits with the language's decimal separator, as Apple's Foundation
            // formats: no grouping (corelibs' `String(format:locale:)` groups `%f` and `%g`,
            // `1,234.500000`) and a lower-case `e` for `%e` (corelibs prints `E+03`).
            let printed = String(format: "%" + flags.filter { $0 != "'" } + specifier.conversion, value)
            return Self.withDecimalSeparator(printed, of: locale)
        case .pointer, .pluralVariable:
            throw FormatMismatch(format: format, message: "\(specifier) cannot be formatted from Swift")
        }
    }

    /// `printed` (a C-locale floating-point conversion, whose only `.` is its radix point)
    /// with `locale`'s decimal separator in place of the `.`.
    static func withDecimalSeparator(_ printed: String, of locale: Locale) -> String {
        guard let separator = locale.decimalSeparator, separator != ".",
            let point = printed.firstIndex(of: ".")
        else { return printed }
        return printed.replacingCharacters(in: point...point, with: separator)
    }

    /// The largest width or precision a conversion may ask for.
    static let maximumWidth = 4095

    /// Whether every number in `flags` (the width, and the precision after `.`) is at most
    /// ``maximumWidth``.
    static func widthAndPrecisionFit(_ flags: String) -> Bool {
        flags.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).allSatisfy { digits in
            Int(digits).map { $0 <= maximumWidth } ?? false
        }
    }

    /// The argument as an integer, for every fixed-width integer type.
    package static func integerValue(_ argument: any CVarArg) -> Int64? {
        switch argument {
        case let value as Int: Int64(value)
        case let value as Int64: value
        case let value as Int32: Int64(value)
        case let value as Int16: Int64(value)
        case let value as Int8: Int64(value)
        case let value as UInt: Int64(bitPattern: UInt64(value))
        case let value as UInt64: Int64(bitPattern: value)
        case let value as UInt32: Int64(value)
        case let value as UInt16: Int64(value)
        case let value as UInt8: Int64(value)
        default: nil
        }
    }

    /// The argument as a floating-point number: a `Double`, a `Float`, or any integer.
    package static func doubleValue(_ argument: any CVarArg) -> Double? {
        switch argument {
        case let value as Double: value
        case let value as Float: Double(value)
        default: integerValue(argument).map(Double.init)
        }
    }
}
