public import Foundation

/// Applies printf-style arguments to a localized format in Swift, checking every
/// conversion against its argument first, so a translation that asks for the wrong
/// arguments fails with a message instead of crashing (`String(format:)` with `%@` for an
/// `Int` reads garbage or traps).
///
/// It prints what Foundation's `String(format:locale:arguments:)` prints on this platform for
/// every conversion, flag, width, precision, length modifier, argument position and malformed
/// conversion (``PrintfFormat`` reads the format as CoreFoundation does, then each conversion
/// is printed by Foundation alone): `%d` reads a C `int` (`Int.max` prints `-1`), `%hhd` a
/// `char`, `%5%` prints `5`. Where Foundation would read another argument's bytes or crash
/// (`%@` of an `Int`, `%d` of a `String` or `Double`), it throws instead; an integer for
/// `%f`, or any value for `%@`, is printed as its value.
///
/// ```swift
/// try LocalizedFormatter.format("%2$@ has %1$d files", [3, "Ann"], locale: Locale(identifier: "en"))
/// // "Ann has 3 files"
/// ```
public enum LocalizedFormatter {
    /// Formats `format` with `arguments` as `String(format:locale:arguments:)` does, or throws
    /// a ``FormatMismatch`` when a conversion has no argument, or one of a kind Foundation
    /// would read as something else. Extra arguments are ignored, as printf ignores them.
    ///
    /// With no `locale` (as `String(format:)`), numbers are printed as C prints them; with one
    /// (as `String.localizedStringWithFormat` and `String(localized:)`), `%d %i %u %f %e %g`
    /// use its digits, grouping and decimal separator (`1 234 567` in French).
    public static func format(
        _ format: String, _ arguments: [any CVarArg], locale: Locale? = nil
    ) throws(FormatMismatch) -> String {
        try self.format(format, arguments, locale: locale, argumentsByPosition: false)
    }

    /// ``format(_:_:locale:)``, with argument *n* for position *n* when `argumentsByPosition`
    /// (a format rendered from a plural entry, ``PrintfFormat/init(_:argumentsByPosition:)``).
    package static func format(
        _ format: String, _ arguments: [any CVarArg], locale: Locale?, argumentsByPosition: Bool
    ) throws(FormatMismatch) -> String {
        let parsed = PrintfFormat(format, argumentsByPosition: argumentsByPosition)
        guard parsed.argumentsRead <= arguments.count else {
            throw FormatMismatch(
                format: format,
                message: "the format reads \(parsed.argumentsRead) arguments, but only \(arguments.count) given")
        }
        var result = ""
        for piece in parsed.pieces {
            switch piece {
            case .text(let text): result += text
            case .conversion(let conversion):
                result += try formatted(conversion, of: parsed, arguments, locale: locale, format: format)
            }
        }
        return result
    }

    /// Formats what can be formatted and leaves a conversion it cannot fill as written:
    /// the last resort, when even the development language's string does not fit.
    public static func formatLeniently(
        _ format: String, _ arguments: [any CVarArg], locale: Locale? = nil
    ) -> String {
        formatLeniently(format, arguments, locale: locale, argumentsByPosition: false)
    }

    /// ``formatLeniently(_:_:locale:)``, with argument *n* for position *n* when
    /// `argumentsByPosition`.
    package static func formatLeniently(
        _ format: String, _ arguments: [any CVarArg], locale: Locale?, argumentsByPosition: Bool
    ) -> String {
        let parsed = PrintfFormat(format, argumentsByPosition: argumentsByPosition)
        var result = ""
        for piece in parsed.pieces {
            switch piece {
            case .text(let text): result += text
            case .conversion(let conversion):
                result +=
                    (try? formatted(conversion, of: parsed, arguments, locale: locale, format: format))
                    ?? conversion.text
            }
        }
        return result
    }

    /// One conversion filled as Foundation fills it: the conversion alone (argument numbers
    /// removed) handed to `String(format:locale:)` with its width, precision and value, once
    /// they are known to be of the kinds it reads — so every flag, length modifier and
    /// locale rule is Foundation's own.
    private static func formatted(
        _ conversion: PrintfConversion, of parsed: PrintfFormat, _ arguments: [any CVarArg], locale: Locale?,
        format: String
    ) throws(FormatMismatch) -> String {
        func argument(_ number: Int) throws(FormatMismatch) -> any CVarArg {
            guard number <= parsed.lastArgumentNumber else {
                throw FormatMismatch(
                    format: format,
                    message:
                        "\(conversion.text) takes argument \(number + 1), past what Foundation reads for this format")
            }
            guard let index = parsed.argumentIndex[number], index < arguments.count else {
                throw FormatMismatch(
                    format: format,
                    message: "\(conversion.text) takes argument \(number + 1), but only \(arguments.count) given")
            }
            return arguments[index]
        }
        func mismatch(_ expected: String, _ value: any CVarArg) -> FormatMismatch {
            FormatMismatch(
                format: format,
                message: "\(conversion.text) expects \(expected), but its argument is \(type(of: value))")
        }
        func tooWide() -> FormatMismatch {
            FormatMismatch(
                format: format,
                message: "\(conversion.text): a width or precision over \(maximumWidth) is not supported")
        }
        // Foundation traps on a width or precision past Int32 and allocates whatever a large
        // one asks for: a lookup's format comes from a translator's file or a client's key,
        // so either is a way to stop or bloat the daemon. C's minimum for one conversion's
        // output is 4,095 bytes (C11 7.21.6.1); anything wider is an error here.
        guard conversion.writtenNumbers.allSatisfy({ $0 <= maximumWidth }) else { throw tooWide() }
        /// An integer argument as CoreFoundation reads it (as its last reader reads it).
        func integer(_ number: Int, _ value: any CVarArg) -> Int64? {
            vaListWord(value).map { (parsed.readSizes[number] ?? .asGiven).read($0) }
        }
        // A `*` is given to Foundation as the number it reads, written out: CoreFoundation
        // sizes its buffer by the written width, and a wide `*` overruns it (a crash). Not
        // for `%D %U %O` outside the locale: C knows no such conversion and prints it as
        // written, `*` as the flags it stands for (`%0*O` of -3 is `%-03O`), never padded.
        var alone = conversion.alone
        var leading: [any CVarArg] = []
        let echoed = "DUO".contains(conversion.conversion) && !(locale != nil && conversion.isLocalized)
        if let number = conversion.widthArgument {
            let given = try starValue(number)
            guard given.magnitude <= maximumWidth else { throw tooWide() }
            // A negative width is a `-` flag, except for `%s` and where Foundation prints the
            // number through the locale: there it drops it.
            let dropped = given < 0 && (conversion.kind == .cString || locale != nil && conversion.isLocalized)
            if echoed {
                leading.append(given)
            } else {
                alone = alone.replacingOccurrences(of: ".*", with: ".?")
                    .replacingOccurrences(of: "*", with: dropped ? "" : "\(given)")
                    .replacingOccurrences(of: ".?", with: ".*")
            }
        }
        if let number = conversion.precisionArgument {
            let given = try starValue(number)
            guard given <= maximumWidth else { throw tooWide() }
            if echoed {
                leading.append(given)
            } else {
                // A negative precision is none, as C says. (With a locale, Foundation crashes
                // on some for `%g`, and prints other digits for `%f` and `%e`.)
                alone = alone.replacingOccurrences(of: ".*", with: given < 0 ? "" : ".\(given)")
                // Through the locale, a precision (even a negative one) turns `0` padding off.
                if given < 0, locale != nil, conversion.isLocalized { alone = withoutZeroFlag(alone) }
            }
        }
        /// A `*`'s argument as C reads it: an `int`.
        func starValue(_ number: Int) throws(FormatMismatch) -> Int32 {
            let value = try argument(number)
            guard let read = integer(number, value) else { throw mismatch("an integer width or precision", value) }
            return Int32(truncatingIfNeeded: read)
        }
        let value = try argument(conversion.argument)
        func foundation(_ value: any CVarArg) -> String {
            String(format: alone, locale: locale, arguments: leading + [value])
        }
        switch conversion.kind {
        case .object:
            // Foundation ignores flags, width and precision here.
            return String(describing: value)
        case .integer, .unichar:
            guard var read = integer(conversion.argument, value) else { throw mismatch("an integer", value) }
            if locale != nil, conversion.isLocalized {
                // `%Ld` has read an `int` there.
                if parsed.readSizes[conversion.argument] == .asGiven { read = Int64(Int32(truncatingIfNeeded: read)) }
                // Through the locale, Foundation prints the 64 bits it read, whatever this
                // conversion's length modifier (`%1$d %1$ld` prints the `long` twice).
                var spec = alone.dropLast()
                while let last = spec.last, "hlqLztj".contains(last) { spec.removeLast() }
                alone = spec + "ll" + String(conversion.conversion)
            }
            return foundation(read)
        case .character:
            if let read = integer(conversion.argument, value) { return foundation(read) }
            // A one-character string is its character's code (a byte: `%c` prints Latin-1).
            if let text = value as? String, text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first,
                scalar.value <= 0xFF
            {
                return foundation(Int(scalar.value))
            }
            throw mismatch("a character code or a one-character Latin-1 string", value)
        case .double:
            guard let number = doubleValue(value) else { throw mismatch("a number", value) }
            return foundation(number)
        case .cString:
            guard let text = value as? String else { throw mismatch("a string", value) }
            // Foundation reads the bytes a C string pointer points to: the string's UTF-8.
            return text.withCString { pointer in foundation(pointer) }
        case .longDouble:
            throw mismatch("a long double (no Swift or JSON argument is one)", value)
        case .pointer:
            throw FormatMismatch(format: format, message: "\(conversion.text) cannot be formatted from Swift")
        }
    }

    /// `conversion` (`%-08d`) without its `0` flags (`%-8d`).
    static func withoutZeroFlag(_ conversion: String) -> String {
        let body = conversion.dropFirst()
        let flags = body.prefix { "-+ #0".contains($0) }
        return "%" + flags.filter { $0 != "0" } + body.dropFirst(flags.count)
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

    /// The 64-bit word Swift puts in a C `va_list` for an integer argument: a 64-bit integer's
    /// bits; a narrower one's as an `Int32`'s bits, zero-extended (`Int8(-3)` is `0xFFFFFFFD`).
    static func vaListWord(_ argument: any CVarArg) -> UInt64? {
        switch argument {
        case let value as Int: UInt64(bitPattern: Int64(value))
        case let value as Int64: UInt64(bitPattern: value)
        case let value as UInt: UInt64(value)
        case let value as UInt64: value
        case let value as Int32: UInt64(UInt32(bitPattern: value))
        case let value as Int16: UInt64(UInt32(bitPattern: Int32(value)))
        case let value as Int8: UInt64(UInt32(bitPattern: Int32(value)))
        case let value as UInt32: UInt64(value)
        case let value as UInt16: UInt64(value)
        case let value as UInt8: UInt64(value)
        default: nil
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
