import Foundation
import Localization
import TestSupport
import Testing

/// `LocalizedStringResource` resolves as `String(localized:)` resolves its arguments.
@Suite struct LocalizedStringResourceTests {
    static let url = URL(fileURLWithPath: PackagePaths.stringCatalog)

    @Test func resolvesInItsLocaleFromItsBundle() {
        let items = LocalizedStringResource("\(1) items", locale: Locale(identifier: "de"), bundle: .atURL(Self.url))
        #expect(items.key == "%lld items")
        #expect(String(localized: items) == "1 Element")
        var inventory = items
        inventory.table = "Inventory"
        #expect(String(localized: inventory) == "1 Teile im Lager")
    }

    @Test func defaultValueAndLiterals() {
        let cart = LocalizedStringResource(
            "cart.count", defaultValue: "\(4) in cart", locale: Locale(identifier: "de"), bundle: .atURL(Self.url))
        #expect(String(localized: cart) == "4 Artikel im Warenkorb")
        var missing = LocalizedStringResource("no.such.key", defaultValue: "\(4) in cart", bundle: .atURL(Self.url))
        missing.locale = Locale(identifier: "de")
        #expect(String(localized: missing) == "4 in cart")
        let literal: LocalizedStringResource = "Hello"
        #expect(literal.key == "Hello")
        let interpolated: LocalizedStringResource = "\(2) items"
        #expect(interpolated.key == "%lld items")
        #expect(interpolated.defaultValue == "\(2) items")
    }

    /// Interpolated into another value, a resource is `%@`, resolved in that value's locale.
    @Test func interpolatedResourceResolvesInTheSameLocale() {
        let greeting = LocalizedStringResource("Hello", bundle: .atURL(Self.url))
        let value: String.LocalizationValue = "\(greeting), \("Ann")!"
        #expect(value.key == "%@, %@!")
        let bundle = Bundle(url: Self.url)
        #expect(String(localized: "\(greeting)", bundle: bundle, locale: Locale(identifier: "fr")) == "Bonjour")
        #expect(
            String(localized: "Hello, \(greeting)!", bundle: bundle, locale: Locale(identifier: "de"))
                == "Hallo, Hallo!")
    }
}
