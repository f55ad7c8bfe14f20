import Foundation
import LocalizationCore
import Testing

/// Floating-point conversions print as Foundation's `String(format:locale:)` prints them on
/// Linux: through the locale, grouped, with its decimal separator and an upper-case exponent
/// (`1,234500E+03` in German); with no locale (`String(format:)`), as C prints them.
@Suite struct FloatingPointFormattingTests {
    func formatted(_ format: String, _ value: Double, _ language: String?) throws -> String {
        try LocalizedFormatter.format(format, [value], locale: language.map(Locale.init(identifier:)))
    }

    @Test func withoutALocaleIsPrintf() throws {
        #expect(try formatted("%f", 1234.5, nil) == "1234.500000")
        #expect(try formatted("%e", 1234.5, nil) == "1.234500e+03")
        #expect(try formatted("%10.1f", 1234.5, nil) == "    1234.5")
    }

    @Test func englishGroups() throws {
        #expect(try formatted("%f", 1234.5, "en") == "1,234.500000")
        #expect(try formatted("%.2f", 1_234_567.25, "en") == "1,234,567.25")
        #expect(try formatted("%g", 1234.5, "en") == "1,234.5")
        #expect(try formatted("%10.1f", 1234.5, "en") == "   1,234.5")
        // `'` is no flag to Foundation: the conversion ends there and prints it.
        #expect(try formatted("%'f", 1234.5, "en") == "'f")
    }

    @Test func exponentsAreUpperCaseThroughTheLocale() throws {
        #expect(try formatted("%e", 1234.5, "en") == "1.234500E+03")
        #expect(try formatted("%E", 1234.5, "en") == "1.234500E+03")
        #expect(try formatted("%G", 1e-10, "en") == "1E-10")
    }

    @Test func theLanguagesSeparators() throws {
        #expect(try formatted("%f", 1234.5, "fr") == "1\u{202F}234,500000")
        #expect(try formatted("%e", 1234.5, "de") == "1,234500E+03")
        #expect(try formatted("%.1f", 1.5, "ru") == "1,5")
        #expect(try formatted("%.0f", 2, "fr") == "2")
        #expect(try formatted("%a", 1.5, "fr") == "0x1,8p+0")
    }
}
