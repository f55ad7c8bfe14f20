import Foundation
import Localization
import Testing

/// `String.LocalizationValue` builds the key Xcode writes into a String Catalog for every
/// type its interpolation accepts, and keeps the interpolated values as the arguments.
@Suite struct LocalizationValueKeyTests {
    static let posix = Locale(identifier: "en_US_POSIX")

    /// The key and the arguments, as text, of `value`.
    static func parts(_ value: String.LocalizationValue) -> (String, [String]) {
        (value.key, value.formatArguments(locale: posix).map { "\($0)" })
    }

    @Test func integersTakeApplesSpecifiers() {
        #expect(Self.parts("\(3) items") == ("%lld items", ["3"]))
        #expect(Self.parts("\(Int64(-4)) a") == ("%lld a", ["-4"]))
        #expect(Self.parts("\(Int32(5)) b") == ("%d b", ["5"]))
        #expect(Self.parts("\(Int16(6)) c") == ("%d c", ["6"]))
        #expect(Self.parts("\(Int8(7)) d") == ("%d d", ["7"]))
        #expect(Self.parts("\(UInt(8)) e") == ("%llu e", ["8"]))
        #expect(Self.parts("\(UInt64(9)) f") == ("%llu f", ["9"]))
        #expect(Self.parts("\(UInt32(10)) g") == ("%u g", ["10"]))
        #expect(Self.parts("\(UInt16(11)) h") == ("%u h", ["11"]))
        #expect(Self.parts("\(UInt8(12)) i") == ("%u i", ["12"]))
    }

    @Test func floatingPointTakesApplesSpecifiers() {
        #expect(Self.parts("\(1.5) kg") == ("%lf kg", ["1.5"]))
        #expect(Self.parts("\(Float(2.5)) m") == ("%f m", ["2.5"]))
        #expect(Self.parts("\(CGFloat(3.5)) s") == ("%lf s", ["3.5"]))
        let cgFloat: String.LocalizationValue = "\(CGFloat(3.5)) s"
        #expect(cgFloat.formatArguments(locale: Self.posix).first is Double)
    }

    @Test func textIsAnObject() {
        let name = "Ann"
        #expect(Self.parts("Hello, \(name)!") == ("Hello, %@!", ["Ann"]))
        #expect(Self.parts("Hello, \(name.dropFirst())!") == ("Hello, %@!", ["nn"]))
        #expect(Self.parts("Grade \(Character("A"))") == ("Grade %@", ["A"]))
        #expect(Self.parts("Shown: \(true)") == ("Shown: %@", ["true"]))
        #expect(Self.parts("Title: \(AttributedString("Bold"))") == ("Title: %@", ["Bold"]))
        #expect(Self.parts("URL: \(URL(string: "https://example.com/x")!)") == ("URL: %@", ["https://example.com/x"]))
    }

    /// A class of the program's own, described by `CustomStringConvertible` (on Apple
    /// platforms an `NSObject` would be the object).
    final class Account: CustomStringConvertible {
        var description: String { "account 7" }
    }

    @Test func describableValuesAreObjects() {
        #expect(Self.parts("Owner: \(Account())") == ("Owner: %@", ["account 7"]))
        #expect(Self.parts("Node: \(NSString(string: "n1"))") == ("Node: %@", ["n1"]))
    }

    @Test func specifierOverridesTheDefault() {
        #expect(Self.parts("Total: \(12.345, specifier: "%.2f")") == ("Total: %.2f", ["12.345"]))
        #expect(Self.parts("Hex \(255, specifier: "%llx")") == ("Hex %llx", ["255"]))
    }

    @Test func formatStylesFormatInTheLookupsLocale() {
        let value: String.LocalizationValue = "Released \(Date(timeIntervalSince1970: 0), format: .iso8601)"
        #expect(value.key == "Released %@")
        #expect(value.formatArguments(locale: Self.posix).map { "\($0)" } == ["1970-01-01T00:00:00Z"])
        let number: String.LocalizationValue = "Weight \(1234.5, format: .number)"
        #expect(number.key == "Weight %@")
        #expect(number.formatArguments(locale: Locale(identifier: "de")).map { "\($0)" } == ["1.234,5"])
        #expect(number.formatArguments(locale: Locale(identifier: "en")).map { "\($0)" } == ["1,234.5"])
    }

    @Test func severalInterpolationsKeepTheirOrder() {
        #expect(Self.parts("\("Ann") has \(3) items") == ("%@ has %lld items", ["Ann", "3"]))
    }

    /// Once a value is a format, its literal `%` must be `%%`, as in Xcode's catalog keys;
    /// without interpolations it is the text as written.
    @Test func literalPercentIsEscapedOnlyInAFormat() {
        #expect(Self.parts("\(50)% done") == ("%lld%% done", ["50"]))
        #expect(Self.parts("100% sure") == ("100% sure", []))
        #expect(String.LocalizationValue("100% sure").key == "100% sure")
    }

    @Test func equalityComparesKeyAndArguments() {
        #expect(("\(3) items" as String.LocalizationValue) == "\(3) items")
        #expect(("\(3) items" as String.LocalizationValue) != "\(4) items")
        #expect(("a" as String.LocalizationValue) == String.LocalizationValue("a"))
        let set: Set<String.LocalizationValue> = ["\(3) items", "\(3) items", "\(4) items", "a"]
        #expect(set.count == 3)
    }
}
