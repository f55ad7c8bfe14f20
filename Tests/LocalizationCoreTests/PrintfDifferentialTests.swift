import Foundation
import LocalizationCore
import Testing

/// l10nd's formatter against Foundation's `String(format:)` and `String(format:locale:)` on
/// this machine, on seeded random formats with every conversion, flag, width, precision,
/// length modifier, argument position and malformed conversion (``PrintfCaseGenerator``).
/// `scripts/fuzz 600 printf` runs the same comparison for as long as asked.
@Suite struct PrintfDifferentialTests {
    /// Cases per run: a few thousand, well under a second.
    static let count = 4000

    @Test func printsWhatFoundationPrints() throws {
        var generator = PrintfCaseGenerator(random: SeededGenerator(state: 25))
        var compared = 0
        var refused = 0
        for _ in 0..<Self.count {
            let testCase = generator.next()
            switch testCase.expectation {
            case .excluded: continue
            case .mismatch:
                refused += 1
                #expect(throws: FormatMismatch.self, "\(testCase)") { try testCase.l10nd() }
            case .sameAsFoundation:
                compared += 1
                let expected = testCase.foundation()
                let actual = try testCase.l10nd()
                // The first difference is enough to act on; the rest would repeat it.
                try #require(
                    actual == expected,
                    "\(testCase): l10nd printed \(actual.debugDescription), Foundation \(expected.debugDescription)")
            }
        }
        #expect(compared > Self.count / 2, "most cases are compared, not excluded")
        #expect(refused > 0)
    }

    /// Format, arguments, locale, and what Foundation prints.
    static let knownAnswers: [(String, [FormatValue], String?, String)] = [
        ("%d", [.integer(.max)], nil, "-1"),
        ("%u|%x|%o", [.integer(-1), .integer(-1), .integer(-1)], nil, "4294967295|ffffffff|37777777777"),
        ("%ld|%lu", [.integer(.max), .integer(-1)], nil, "9223372036854775807|18446744073709551615"),
        ("%hd|%hhd|%hhu", [.integer(70000), .integer(300), .integer(-1)], nil, "4464|44|255"),
        ("%8s|%-8s|%.3s", [.string("héllo"), .string("héllo"), .string("héllo")], nil, "  héllo|héllo  |hé"),
        ("%5c|%-5c|", [.integer(65), .integer(66)], nil, "    A|B    |"),
        ("x%5%|x%y|%'d|x%", [], nil, "x5|xy|'d|x"),
        ("%3$@ %1$@", [.string("a"), .string("b"), .string("c")], nil, "b a"),
        ("%2$@ %@", [.string("a"), .string("b")], nil, "b a"),
        (
            "%*d|%-*d|%.*f", [.integer(5), .integer(3), .integer(5), .integer(3), .integer(2), .double(3.14159)], nil,
            "    3|3    |3.14"
        ),
        ("%#@count@ %#@a b@", [.string("n")], nil, "n #@"),
        ("%d", [.integer(1_234_567)], "fr", "1\u{202F}234\u{202F}567"),
        ("%d|%f", [.integer(1_234_567), .double(1234.5)], "de", "1.234.567|1.234,500000"),
        ("%d", [.integer(1_234_567)], "hi-IN", "12,34,567"),
        ("%d", [.integer(1_234_567)], "en_US_POSIX", "1234567"),
        ("%d|%x", [.integer(1_234_567), .integer(255)], nil, "1234567|ff"),
    ]

    @Test func anArgumentNumberPastFoundationsTableIsRefused() throws {
        #expect(try LocalizedFormatter.format("%4$d", [1, 2, 3, 4]) == "1")
        #expect(throws: FormatMismatch.self) { try LocalizedFormatter.format("%5$d", [1, 2, 3, 4, 5]) }
    }

    @Test func aWidthOrPrecisionOver4095IsRefused() throws {
        #expect(try LocalizedFormatter.format("%*d|%.*d", [-4095, 1, -5000, 2]).count == 4097)
        for (format, arguments) in [("%*d", [4096, 1]), ("%*d", [-4096, 1]), ("%.*d", [4096, 1]), ("%4096d", [1])] {
            #expect(throws: FormatMismatch.self, "\(format)") { try LocalizedFormatter.format(format, arguments) }
        }
    }

    @Test(arguments: knownAnswers)
    func knownAnswer(format: String, values: [FormatValue], locale: String?, expected: String) throws {
        let locale = locale.map(Locale.init(identifier:))
        let arguments = values.map(\.argument)
        #expect(try LocalizedFormatter.format(format, arguments, locale: locale) == expected)
        // Not a copy of what l10nd believes: Foundation on this machine agrees.
        // (`%s` takes a C string pointer there.)
        if !format.contains("s") {
            #expect(String(format: format, locale: locale, arguments: arguments) == expected)
        }
    }
}
