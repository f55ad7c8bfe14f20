import Foundation
import LocalizationCore

// Random printf formats and arguments for the differential tests against Foundation's
// `String(format:)` and `String(format:locale:)`: the seeded suite (PrintfDifferentialTests)
// and the long libFuzzer run (`scripts/fuzz 600 printf`, which compiles this file too).

/// One argument, as l10nd is given it and as Foundation is given it.
enum PrintfArgument: CustomStringConvertible {
    /// A Swift integer of any width, given to both as is.
    case integer(any CVarArg)
    /// A `Double` or `Float`, given to both as is.
    case floating(any CVarArg)
    /// An `Int` for a floating-point conversion: l10nd prints its value, as a JSON number;
    /// Foundation is given the `Double` a Swift caller would pass.
    case integerAsDouble(Int)
    /// A `String` for `%@`.
    case object(String)
    /// A `String` for `%s`: Foundation is given a pointer to its UTF-8.
    case cString(String)
    /// A one-character `String` for `%c`: Foundation is given its code.
    case character(String)

    /// What l10nd is given.
    var l10nd: any CVarArg {
        switch self {
        case .integer(let value), .floating(let value): value
        case .integerAsDouble(let value): value
        case .object(let text), .cString(let text), .character(let text): text
        }
    }

    var description: String {
        switch self {
        case .integer(let value), .floating(let value): "\(type(of: value))(\(value))"
        case .integerAsDouble(let value): "Int(\(value)) as Double"
        case .object(let text): "@\(text.debugDescription)"
        case .cString(let text): "s\(text.debugDescription)"
        case .character(let text): "c\(text.debugDescription)"
        }
    }
}

/// One random format, its arguments and locale, and what is expected of l10nd.
struct PrintfCase: CustomStringConvertible {
    /// What the case checks.
    enum Expectation: Equatable {
        /// l10nd prints what Foundation prints.
        case sameAsFoundation
        /// An argument is of a kind Foundation would read as another (a `Double` or a
        /// `String` for `%d`, a number for `%s`): l10nd throws a mismatch.
        case mismatch
        /// Not checked, for the reason given (Foundation crashes or reads memory it was not given).
        case excluded(String)
    }

    var format: String
    var arguments: [PrintfArgument]
    var locale: Locale?
    var expectation: Expectation

    var description: String {
        "\(format.debugDescription) with [\(arguments.map(\.description).joined(separator: ", "))], locale \(locale?.identifier ?? "none")"
    }

    /// What l10nd prints (or the mismatch it throws).
    func l10nd() throws(FormatMismatch) -> String {
        try LocalizedFormatter.format(format, arguments.map(\.l10nd), locale: locale)
    }

    /// What Foundation prints; only for ``Expectation/sameAsFoundation`` cases (others crash it).
    func foundation() -> String {
        var pointers: [UnsafeMutablePointer<CChar>] = []
        defer { pointers.forEach { free($0) } }
        let values: [any CVarArg] = arguments.map { argument in
            switch argument {
            case .integer(let value), .floating(let value): return value
            case .integerAsDouble(let value): return Double(value)
            case .object(let text): return text
            case .cString(let text):
                pointers.append(strdup(text)!)
                return UnsafePointer(pointers.last!)
            case .character(let text): return Int(text.unicodeScalars.first!.value)
            }
        }
        return String(format: format, locale: locale, arguments: values)
    }
}

/// Makes ``PrintfCase``s from a source of random numbers.
struct PrintfCaseGenerator<Source: RandomNumberGenerator> {
    var random: Source

    /// Locales the cases use, beside none (`String(format:)`): grouping with a narrow no-break
    /// space, a dot, an apostrophe, Indian grouping, other digits, POSIX.
    static var locales: [String] {
        ["fr", "de", "en", "en_US_POSIX", "ar-EG", "fa", "hi-IN", "de-CH", "ja", "pt-PT", "es", "ru", "zh-Hant-TW"]
    }

    private enum ArgumentClass: Equatable { case integer, floating, cString, object }

    /// Argument classes and the conversions reading them, by argument number (0-based).
    private var classes: [Int: ArgumentClass] = [:]
    private var readers: [Int: Set<Character>] = [:]
    private var nextArgument = 0
    /// Argument numbers of `.*` precisions of floating-point conversions.
    private var negativePrecisions: Set<Int> = []
    private var localized = false
    private var exclusion: String?

    init(random: Source) { self.random = random }

    mutating func next() -> PrintfCase {
        classes = [:]
        readers = [:]
        nextArgument = 0
        negativePrecisions = []
        exclusion = nil
        let positional = Int.random(in: 0..<10, using: &random)  // 0–5 none, 6–8 all, 9 mixed
        var format = ""
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<5: format += pick(["", "a", "x y", "é", "中文", "😀", "%%", " ", "-", "\n", "100%%"])
            case 5..<7: format += malformed()
            default:
                let numbered = positional >= 6 && (positional == 6 || positional == 7 || Bool.random(using: &random))
                format += conversion(numbered: numbered)
            }
        }
        if Int.random(in: 0..<12, using: &random) == 0 {
            let ending = pick(["%", "%5", "%-", "%.", "%l", "%1$", "%#", "%#@ab", "%5.", "%*", "%-#@"])
            // CoreFoundation reads one character past a trailing number or `.`: its buffer's
            // terminating NUL when there is one (`a%5` → `a5`), else whatever memory follows.
            if ending.last!.isNumber || ending.last == "." {
                exclusion = "a trailing number or '.' reads past the end of Foundation's buffer"
            }
            // A trailing `*` leaves its argument unread or read: avoided in the oracle below.
            format += ending == "%*" ? "%" : ending
        }
        let locale = Bool.random(using: &random) ? nil : Locale(identifier: pick(Self.locales))
        localized = locale != nil
        var arguments = classes.keys.sorted().map { argument(for: $0) }
        var expectation = PrintfCase.Expectation.sameAsFoundation
        if let last = classes.keys.max(), last > 3 * format.utf16.count(where: { $0 == 0x25 }) {
            exclusion = "Foundation keeps 3 arguments per % and one: it reads memory for a number past that"
        }
        if let exclusion { expectation = .excluded(exclusion) }
        if !arguments.isEmpty, Int.random(in: 0..<10, using: &random) == 0 {
            let index = Int.random(in: 0..<arguments.count, using: &random)
            let number = classes.keys.sorted()[index]
            switch classes[number]! {
            case .integer:
                let text = Bool.random(using: &random)
                arguments[index] = text ? .object("7") : .floating(2.5)
                expectation =
                    text && readers[number] == ["c"]
                    ? .excluded("Foundation reads the address of a string's object as a character code") : .mismatch
            case .cString:
                arguments[index] = .integer(Int.random(in: 0...9, using: &random))
                expectation = .mismatch
            case .object:
                arguments[index] = .integer(3)
                expectation = .excluded("Foundation dereferences a number given for %@ as an object and crashes")
            case .floating:
                arguments[index] = .object("2.5")
                expectation = .mismatch
            }
        }
        if Bool.random(using: &random) { arguments.append(.integer(99)) }  // extra arguments are ignored
        if Int.random(in: 0..<8, using: &random) == 0, !classes.isEmpty {
            // Foundation would read past the arguments it was given.
            arguments.removeLast(arguments.count - classes.count + 1)
            expectation = .mismatch
        }
        return PrintfCase(format: format, arguments: arguments, locale: locale, expectation: expectation)
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

    /// A `%` CoreFoundation reads as no conversion: it prints the character after the `%`.
    /// No `*` or argument number in it: whether those take an argument is not observable
    /// (and `%5$` before the text `a` would make a conversion).
    private mutating func malformed() -> String {
        var text = "%"
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            text += pick(["-", "+", " ", "#", "0", "5", "12", ".", ".3", "l", "h"])
        }
        return text + pick(["y", "k", "w", "%", "'", "!", "é", "中", "K", "m", "b", "v", "\"", "&", "r", "R"])
    }

    /// An argument number for a conversion of `kind`: the next unnumbered one, or a random
    /// number when `numbered`; nil when that number already has another class.
    private mutating func claim(_ kind: ArgumentClass, numbered: Bool, reader: Character) -> (Int, String)? {
        let number: Int
        if numbered {
            number = Int.random(in: 0..<6, using: &random)
        } else {
            number = nextArgument
        }
        if let existing = classes[number], existing != kind { return nil }
        if !numbered { nextArgument += 1 }
        classes[number] = kind
        readers[number, default: []].insert(reader)
        return (number, numbered ? "\(number + 1)$" : "")
    }

    private mutating func conversion(numbered: Bool) -> String {
        let conversions: [Character] = Array("ddiuxXoccs@@ffeEgGaADUOFCp")
        let character = pick(conversions)
        if character == "@", Int.random(in: 0..<4, using: &random) == 0 {
            // A `.stringsdict` variable CoreFoundation has no configuration for: an object.
            guard let (_, position) = claim(.object, numbered: numbered, reader: "@") else { return "%%" }
            return "%" + position + "#@" + pick(["n", "count", "a_1", ""]) + "@"
        }
        var flags = ""
        for _ in 0..<Int.random(in: 0...3, using: &random) where Int.random(in: 0..<3, using: &random) == 0 {
            flags += pick(["-", "+", " ", "#", "0", "'"])
        }
        if flags.contains("'") {
            // CoreFoundation knows no `'` flag: the conversion ends there and prints the
            // character after the `%`; what follows is text.
            return "%" + flags + String(character)
        }
        let saved = (classes, readers, nextArgument)
        var width = ""
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: width = String(Int.random(in: 1...20, using: &random))
        case 4: width = "0"
        case 5:
            if let (_, position) = claim(.integer, numbered: numbered, reader: "*") { width = "*" + position }
        default: break
        }
        var precision = ""
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3: precision = "." + String(Int.random(in: 0...12, using: &random))
        case 3: precision = "."
        case 4:
            if let (number, position) = claim(.integer, numbered: numbered, reader: "*") {
                precision = ".*" + position
                if "feEgGaAF".contains(character) { negativePrecisions.insert(number) }
            }
        default: break
        }
        var length = ""
        if Int.random(in: 0..<3, using: &random) == 0 {
            length = pick(["h", "hh", "l", "ll", "q", "z", "t", "j", "L"])
        }
        let kind: ArgumentClass
        switch character {
        case "s": kind = .cString
        case "@": kind = .object
        case "f", "e", "E", "g", "G", "a", "A", "F": kind = .floating
        default: kind = .integer
        }
        if kind == .floating, ["L", "q", "ll"].contains(length) {
            exclusion = "%Lf, %qf and %llf read a long double, which Swift cannot pass"
        }
        if kind == .object || kind == .cString || character == "C" || character == "c" { length = "" }
        if kind == .integer, length == "L", width.hasPrefix("*") || precision.hasPrefix(".*") {
            exclusion = "%*Ld: Foundation reads the value at a size that depends on the '*' (l10nd does not follow it)"
        }
        // `%#…@` starts a variable name: generated on its own below, whole.
        if kind == .object { flags.removeAll { $0 == "#" } }
        guard let (_, position) = claim(kind, numbered: numbered, reader: character) else {
            // Its number has another kind: no conversion, and no claim of its width either.
            (classes, readers, nextArgument) = saved
            return "%%"
        }
        return "%" + position + flags + width + precision + length + String(character)
    }

    private mutating func argument(for number: Int) -> PrintfArgument {
        let readers = readers[number] ?? []
        switch classes[number]! {
        case .integer:
            // Widths and precisions are small: Foundation allocates whatever a large one asks
            // for (l10nd refuses over 4,095, PrintfDifferentialTests checks).
            if readers.contains("*") {
                let value = Int.random(in: -20...20, using: &random)
                if value < 0, localized, negativePrecisions.contains(number) {
                    exclusion =
                        "with a locale, Foundation crashes on some negative precisions of %g (l10nd ignores them, as C)"
                }
                return .integer(value)
            }
            if readers == ["c"], Int.random(in: 0..<4, using: &random) == 0 {
                return .character(pick(["A", "é", "ÿ", "%"]))
            }
            // No UTF-16 surrogate for `%C`: Foundation pairs two in a row, l10nd prints each
            // conversion on its own (U+FFFD each).
            let value = pick([
                0, 1, -1, 7, 42, 255, 256, 1234, 12345, 1_234_567, -1_234_567, 2_147_483_647, -2_147_483_648,
                Int.max, Int.min, 65535, 0x4E2D, 0xE9, Int.random(in: -100_000...100_000, using: &random),
            ])
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return .integer(Int32(truncatingIfNeeded: value))
            case 1: return .integer(Int8(truncatingIfNeeded: value))
            case 2: return .integer(UInt8(truncatingIfNeeded: value))
            case 3: return .integer(UInt64(bitPattern: Int64(value)))
            case 4: return .integer(Int16(truncatingIfNeeded: value))
            case 5: return .integer(UInt32(truncatingIfNeeded: value))
            default: return .integer(value)
            }
        case .floating:
            let value = pick([
                0, -0.0, 1.5, -2.25, 1_234_567.891, 1e-10, 1e300, .nan, .infinity, -.infinity, 0.1, 123.456, 2.5,
                Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 64,
            ])
            switch Int.random(in: 0..<8, using: &random) {
            case 0: return .floating(Float(value))
            case 1: return .integerAsDouble(Int.random(in: -5000...5000, using: &random))
            default: return .floating(value)
            }
        case .cString: return .cString(pick(["", "abc", "héllo", "中文", "😀x", "a b", "Long text here"]))
        case .object: return .object(pick(["", "abc", "héllo", "中文", "😀", "Ana"]))
        }
    }
}
