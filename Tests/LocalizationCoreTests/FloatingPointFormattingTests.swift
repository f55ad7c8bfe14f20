import Foundation
import LocalizationCore
import Testing

/// Floating-point conversions print as Apple's Foundation `String(format:locale:)` does:
/// printf's digits, never grouped, `e` in the case the conversion asks for, with the
/// language's decimal separator.
@Suite struct FloatingPointFormattingTests {
    func formatted(_ format: String, _ value: Double, _ language: String) throws -> String {
        try LocalizedFormatter.format(format, [value], locale: Locale(identifier: language))
    }

    @Test func englishIsPrintfWithoutGrouping() throws {
        #expect(try formatted("%f", 1234.5, "en") == "1234.500000")
        #expect(try formatted("%.2f", 1_234_567.25, "en") == "1234567.25")
        #expect(try formatted("%g", 1234.5, "en") == "1234.5")
        #expect(try formatted("%10.1f", 1234.5, "en") == "    1234.5")
        // The grouping flag is dropped, as for integers.
        #expect(try formatted("%'f", 1234.5, "en") == "1234.500000")
    }

    @Test func exponentsKeepTheConversionsCase() throws {
        #expect(try formatted("%e", 1234.5, "en") == "1.234500e+03")
        #expect(try formatted("%E", 1234.5, "en") == "1.234500E+03")
        #expect(try formatted("%G", 1e-10, "en") == "1E-10")
    }

    @Test func theLanguagesDecimalSeparatorReplacesThePoint() throws {
        #expect(try formatted("%f", 1234.5, "fr") == "1234,500000")
        #expect(try formatted("%e", 1234.5, "de") == "1,234500e+03")
        #expect(try formatted("%.1f", 1.5, "ru") == "1,5")
        #expect(try formatted("%.0f", 2, "fr") == "2")
    }
}
