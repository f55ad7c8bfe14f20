/// A printf-style format read the way Foundation's `String(format:)` reads it on Linux
/// (CoreFoundation's `__CFParseFormatSpec` and `__CFStringAppendFormatCore`), so that
/// ``LocalizedFormatter`` consumes the same arguments and prints the same text around them.
///
/// What it copies from CoreFoundation, and why each matters for the output:
/// - A `%` that starts no conversion (`%y`, `x%5%`, `%'d`) is replaced by the one character
///   after the `%`, and everything up to the character that ended it is dropped (`%5y` → `5`).
///   A format that ends inside a conversion (`x%`, `x%-`, `x%1$`) drops it; a number or `.`
///   at the very end reads the string's terminating NUL, which ends it the same way (`x%5` → `x5`).
/// - `%#@name@` (a `.stringsdict` variable with no configuration) is an object conversion; a
///   character that cannot be in a name ends the name and is dropped (`%#@a b@` → `#@`).
/// - Unnumbered conversions (and `*` widths and precisions) take argument numbers 1, 2, 3…
///   whatever the numbered ones take (`%2$@ %@` reads arguments 2 and 1); then the argument
///   numbers in use, in order, read the arguments in order: a number no conversion uses takes
///   no argument (`%3$@ %1$@` with `a b c` prints `b a`).
/// - Its table of arguments has room for 3 per `%` in the format, and one: an argument
///   number past that (`%5$d` alone) reads memory Foundation was not given.
/// - An argument is read once, as the last conversion that uses it reads it: `%1$d %1$ld`
///   reads a `long`, `%1$ld %1$d` an `int` (so the `%ld` prints `-1` for `Int.max`).
struct PrintfFormat: Sendable, Hashable {
    /// A piece of the output: text, or a conversion to fill.
    enum Piece: Sendable, Hashable {
        /// Text copied as is.
        case text(String)
        /// A conversion that takes an argument.
        case conversion(PrintfConversion)
    }

    /// The pieces, in order.
    var pieces: [Piece]
    /// For every argument number a conversion reads (0-based), the index of the argument it
    /// gets in the argument list.
    var argumentIndex: [Int: Int]
    /// How each integer argument is read, by argument number: as its last reader reads it.
    var readSizes: [Int: PrintfConversion.ReadSize]
    /// How many arguments the conversions read.
    var argumentsRead: Int { (argumentIndex.values.max() ?? -1) + 1 }
    /// The highest argument number (0-based) Foundation keeps a value for.
    var lastArgumentNumber: Int

    /// `format` read as CoreFoundation reads it. `argumentsByPosition` for a format rendered
    /// from a plural entry (`%#@files@ in %#@folders@` → `two files in %2$d folders`): there
    /// each variable took its argument, as CoreFoundation's `%#@…@` does, so position *n*
    /// is argument *n* even when no conversion is left for some.
    init(_ format: String, argumentsByPosition: Bool = false) {
        let units = Array(format.utf16)
        lastArgumentNumber = 3 * units.count { $0 == Self.percent }
        var pieces: [Piece] = []
        var text: [UInt16] = []
        var nextArgument = 0
        var index = 0
        func flushText() {
            if !text.isEmpty { pieces.append(.text(String(decoding: text, as: UTF16.self))) }
            text = []
        }
        while index < units.count {
            let unit = units[index]
            guard unit == Self.percent else {
                text.append(unit)
                index += 1
                continue
            }
            if index + 1 < units.count, units[index + 1] == Self.percent {
                text.append(Self.percent)
                index += 2
                continue
            }
            var reader = SpecificationReader(units: units, start: index)
            let outcome = reader.read()
            index = reader.position
            switch outcome {
            case .incomplete:
                break
            case .literal:
                text.append(units[reader.start + 1])
            case .conversion(var conversion):
                if conversion.widthArgument == Self.nextNumber {
                    conversion.widthArgument = nextArgument
                    nextArgument += 1
                }
                if conversion.precisionArgument == Self.nextNumber {
                    conversion.precisionArgument = nextArgument
                    nextArgument += 1
                }
                if conversion.argument == Self.nextNumber {
                    conversion.argument = nextArgument
                    nextArgument += 1
                }
                flushText()
                pieces.append(.conversion(conversion))
            }
        }
        flushText()
        self.pieces = pieces
        var numbers = Set<Int>()
        var readSizes: [Int: PrintfConversion.ReadSize] = [:]
        // Each conversion types its value's number, then its width's and precision's.
        for case .conversion(let conversion) in pieces {
            numbers.insert(conversion.argument)
            readSizes[conversion.argument] = conversion.readSize
            for number in [conversion.widthArgument, conversion.precisionArgument].compactMap({ $0 }) {
                numbers.insert(number)
                readSizes[number] = .int
            }
        }
        self.readSizes = readSizes
        argumentIndex = Dictionary(
            uniqueKeysWithValues: numbers.sorted().enumerated().map {
                ($0.element, argumentsByPosition ? $0.element : $0.offset)
            })
        if argumentsByPosition { lastArgumentNumber = .max }
    }

    static let percent = UInt16(UInt8(ascii: "%"))
    /// An argument number not given yet: the next unnumbered one.
    static let nextNumber = -2
}

/// One conversion of a ``PrintfFormat``.
struct PrintfConversion: Sendable, Hashable {
    /// What the conversion reads and prints.
    enum Kind: Sendable, Hashable {
        /// `d i o u x X D O U p`: a C integer of the length modifier's size.
        case integer
        /// `c`: an `int` printed as one byte (a Latin-1 character).
        case character
        /// `C`: a UTF-16 unit.
        case unichar
        /// `f F e E g G a A`: a `double`.
        case double
        /// `f`… with `L`, `q` or `ll`: a `long double`, which no Swift or JSON argument is.
        case longDouble
        /// `s`: a NUL-terminated UTF-8 C string.
        case cString
        /// `@` and `#@name@`: an object, printed as its description.
        case object
        /// `S`, `P` and `n`: pointers to UTF-16, Pascal strings or a count to write.
        case pointer
    }

    /// How CoreFoundation reads an integer from the argument's 64-bit va_list word before
    /// printing it: `%hhd` reads a `char`, `%d` an `int`, `%ld` all of it.
    enum ReadSize: Sendable, Hashable {
        /// `hh` and `%c`: a signed `char`.
        case char
        /// `h` and `%C`: a signed `short` (the `unichar` `%C` prints is its low 16 bits).
        case short
        /// No length modifier, and `*`: an `int`.
        case int
        /// `l ll q j z t` and `%p`: 64 bits.
        case word
        /// `L`: the word as it is (Foundation's own reading of the conversion alone decides).
        case asGiven

        /// `word` as read.
        func read(_ word: UInt64) -> Int64 {
            switch self {
            case .char: Int64(Int8(truncatingIfNeeded: word))
            case .short: Int64(Int16(truncatingIfNeeded: word))
            case .int: Int64(Int32(truncatingIfNeeded: word))
            case .word, .asGiven: Int64(bitPattern: word)
            }
        }
    }

    /// The kind.
    var kind: Kind
    /// How the argument is read, when it is an integer.
    var readSize: ReadSize
    /// The conversion as written (`%2$-*1$d`), for messages and lenient formatting.
    var text: String
    /// The conversion alone, for Foundation to print: argument numbers removed (`%-*d`).
    var alone: String
    /// The argument number (0-based) of the value.
    var argument: Int
    /// The argument number of a `*` width, if any.
    var widthArgument: Int?
    /// The argument number of a `.*` precision, if any.
    var precisionArgument: Int?
    /// The widths and precisions written as numbers.
    var writtenNumbers: [Int]
    /// The conversion character.
    var conversion: Character { text.last ?? "%" }
    /// Whether Foundation prints the number through its locale, when it has one (`d i u f e g`
    /// and their capitals: the ones that take the locale's digits and separators).
    var isLocalized: Bool { "diuDUfFeEgG".contains(conversion) }
}

/// Reads one conversion from its `%`, as `__CFParseFormatSpec` does (see ``PrintfFormat``).
private struct SpecificationReader {
    enum Outcome {
        case incomplete
        case literal
        case conversion(PrintfConversion)
    }

    let units: [UInt16]
    let start: Int
    /// The index after what has been read.
    var position: Int
    /// What Foundation is given for the conversion alone.
    var alone: [UInt16] = [PrintfFormat.percent]

    init(units: [UInt16], start: Int) {
        self.units = units
        self.start = start
        position = start + 1
    }

    /// The next unit; past the end, the terminating NUL CoreFoundation's buffer has there.
    mutating func next() -> UInt16 {
        defer { position += 1 }
        return position < units.count ? units[position] : 0
    }

    mutating func read() -> Outcome {
        var seenSharp = false
        var keyStart: Int?
        var pendingUnit: UInt16?
        var main = PrintfFormat.nextNumber
        var width: Int?
        var precision: Int?
        var lengths: [UInt16] = []
        var size = PrintfConversion.ReadSize.int
        var written: [Int] = []
        func ascii(_ character: Character) -> UInt16 { UInt16(character.asciiValue!) }
        while true {
            let unit: UInt16
            if let pending = pendingUnit {
                unit = pending
                pendingUnit = nil
            } else {
                guard position < units.count else { return .incomplete }
                unit = next()
                if keyStart != nil {
                    alone.append(unit)
                    if unit == ascii("@") { return conversion(.object, .word, main, width, precision, written) }
                    if !Self.isNameUnit(unit) { keyStart = nil }
                    continue
                }
            }
            if unit != 0 { alone.append(unit) }
            switch unit {
            case ascii("#"): seenSharp = true
            case ascii(" "), ascii("-"), ascii("+"), ascii("0"): break
            case ascii("h"), ascii("l"):
                size = unit == ascii("l") ? .word : .short
                if position < units.count, units[position] == unit {
                    alone.append(next())
                    lengths.append(unit)
                    if unit == ascii("h") { size = .char }
                }
                lengths.append(unit)
            case ascii("L"), ascii("q"), ascii("t"), ascii("z"), ascii("j"):
                lengths = [unit]
                size = unit == ascii("L") ? .asGiven : .word
            case ascii("c"): return conversion(.character, .char, main, width, precision, written)
            case ascii("p"): return conversion(.integer, .word, main, width, precision, written)
            case ascii("d"), ascii("i"), ascii("u"), ascii("o"), ascii("x"), ascii("X"), ascii("D"), ascii("U"),
                ascii("O"):
                return conversion(.integer, size, main, width, precision, written)
            case ascii("f"), ascii("F"), ascii("e"), ascii("E"), ascii("g"), ascii("G"), ascii("a"), ascii("A"):
                // `L`, `q` and `ll` make CoreFoundation read a long double (Foundation prints
                // `nan` or garbage for a Swift `Double`).
                let long =
                    lengths == [ascii("L")] || lengths == [ascii("q")] || lengths.suffix(2) == [ascii("l"), ascii("l")]
                return conversion(long ? .longDouble : .double, .asGiven, main, width, precision, written)
            case ascii("s"): return conversion(.cString, .asGiven, main, width, precision, written)
            case ascii("C"): return conversion(.unichar, .short, main, width, precision, written)
            case ascii("S"), ascii("P"), ascii("n"): return conversion(.pointer, .word, main, width, precision, written)
            case ascii("@"):
                if seenSharp {
                    seenSharp = false
                    keyStart = position
                } else {
                    return conversion(.object, .word, main, width, precision, written)
                }
            case ascii("1")...ascii("9"):
                var number = Int(unit - ascii("0"))
                var digits = [unit]
                var following = next()
                while (ascii("0")...ascii("9")).contains(following) {
                    number = min(number * 10 + Int(following - ascii("0")), 1 << 40)
                    digits.append(following)
                    following = next()
                }
                if following == ascii("$") {
                    alone.removeLast()  // the first digit, appended above
                    if precision == PrintfFormat.nextNumber {
                        precision = number - 1
                    } else if width == PrintfFormat.nextNumber {
                        width = number - 1
                    } else {
                        main = number - 1
                    }
                } else {
                    alone += digits.dropFirst()
                    written.append(number)
                    pendingUnit = following
                }
            case ascii("*"): width = PrintfFormat.nextNumber
            case ascii("."):
                let following = next()
                if following == ascii("*") {
                    alone.append(following)
                    precision = PrintfFormat.nextNumber
                } else {
                    pendingUnit = following
                }
            default:
                return .literal
            }
        }
    }

    /// A conversion of `kind`, read up to `position`.
    func conversion(
        _ kind: PrintfConversion.Kind, _ size: PrintfConversion.ReadSize, _ main: Int, _ width: Int?, _ precision: Int?,
        _ written: [Int]
    )
        -> Outcome
    {
        let text = String(decoding: units[start..<min(position, units.count)], as: UTF16.self)
        return .conversion(
            PrintfConversion(
                kind: kind, readSize: size, text: text, alone: String(decoding: alone, as: UTF16.self), argument: main,
                widthArgument: width, precisionArgument: precision, writtenNumbers: written))
    }

    /// Whether `unit` can be in a `%#@name@` variable's name: ASCII letters, digits and `_`.
    static func isNameUnit(_ unit: UInt16) -> Bool {
        guard unit < 128 else { return false }
        let character = Character(Unicode.Scalar(UInt8(unit)))
        return character.isLetter || character.isNumber || character == "_"
    }
}
