import Foundation
import Localization
import TestSupport
import Testing

/// A `String.LocalizationValue` survives encoding, as Apple's `Codable` one does.
@Suite struct LocalizationValueCodingTests {
    @Test func roundTripKeepsKeyAndArguments() throws {
        let value: String.LocalizationValue =
            "\("Ann") has \(3) items, \(UInt(4)), \(Int32(-5)), \(1.5), \(Float(2.5)), \(1234.5, format: .number)"
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(String.LocalizationValue.self, from: data)
        #expect(decoded == value)
        #expect(decoded.key == "%@ has %lld items, %llu, %d, %lf, %f, %@")
        let posix = Locale(identifier: "en_US_POSIX")
        #expect(
            decoded.formatArguments(locale: posix).map { "\($0)" } == ["Ann", "3", "4", "-5", "1.5", "2.5", "1234.5"])
        #expect(decoded.formatArguments(locale: posix)[1] is Int64)
    }

    @Test func decodedValueLooksUpLikeTheOriginal() throws {
        let value: String.LocalizationValue = "\(1) items"
        let decoded = try JSONDecoder().decode(String.LocalizationValue.self, from: JSONEncoder().encode(value))
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useResources(at: [PackagePaths.stringCatalog])
        #expect(localizer.localized(decoded, locale: Locale(identifier: "de")) == "1 Element")
    }

    @Test func malformedInputIsAnError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(String.LocalizationValue.self, from: Data(#"{"arguments":[]}"#.utf8))
        }
    }
}
