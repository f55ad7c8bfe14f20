import Foundation
import Localization
import TestSupport
import Testing

/// Apple's iOS 15/16 localization API that the issue-11 attack found missing compiles and
/// resolves as on Apple platforms: `LocalizedStringResource` with `bundle: Bundle`,
/// `String.LocalizationOptions`, `CustomLocalizedStringResourceConvertible` and
/// `AttributedString(localized:)`.
@Suite struct AppleLocalizationSignatureTests {
    static let bundle = Bundle(path: PackagePaths.stringCatalog)!
    static let de = Locale(identifier: "de")

    @Test func resourceTakesABundle() {
        let items = LocalizedStringResource(
            "\(3) items", table: nil, locale: Self.de, bundle: Self.bundle, comment: nil)
        #expect(String(localized: items) == "3 Elemente")
        let cart = LocalizedStringResource(
            "cart.count", defaultValue: "\(4) in cart", table: nil, locale: Self.de, bundle: Self.bundle, comment: nil)
        #expect(String(localized: cart) == "4 Artikel im Warenkorb")
        // `.main` is still the BundleDescription case; `Bundle.main` the main bundle too.
        let main = LocalizedStringResource("Hello", bundle: .main)
        let explicit = LocalizedStringResource("Hello", bundle: Bundle.main)
        #expect(String(localized: main) == String(localized: explicit))
    }

    @Test func optionsReplaceTheArguments() {
        var options = String.LocalizationOptions()
        #expect(String(localized: "\(1) items", options: options, bundle: Self.bundle, locale: Self.de) == "1 Element")
        options.replacements = [3]
        #expect(String(localized: "\(1) items", options: options, bundle: Self.bundle, locale: Self.de) == "3 Elemente")
        #expect(
            String(
                localized: "cart.count", defaultValue: "\(1) in cart", options: options, bundle: Self.bundle,
                locale: Self.de) == "3 Artikel im Warenkorb")
        let resource = LocalizedStringResource("\(1) items", locale: Self.de, bundle: Self.bundle)
        #expect(String(localized: resource, options: options) == "3 Elemente")
    }

    struct Inventory: CustomLocalizedStringResourceConvertible {
        var count: Int
        var localizedStringResource: LocalizedStringResource {
            LocalizedStringResource("\(count) items", locale: Locale(identifier: "de"), bundle: bundle)
        }
        let bundle = AppleLocalizationSignatureTests.bundle
    }

    @Test func convertibleTypesDescribeThemselves() {
        #expect(String(localized: Inventory(count: 2).localizedStringResource) == "2 Elemente")
        let resource = LocalizedStringResource("Hello")
        #expect(resource.localizedStringResource.key == "Hello")
    }

    @Test func attributedStringsHoldTheLocalizedText() {
        let items = AttributedString(localized: "\(3) items", bundle: Self.bundle, locale: Self.de)
        #expect(String(items.characters) == "3 Elemente")
        let cart = AttributedString(
            localized: "cart.count", defaultValue: "\(4) in cart", options: [.applyReplacementIndexAttribute],
            bundle: Self.bundle, locale: Self.de)
        #expect(String(cart.characters) == "4 Artikel im Warenkorb")
        let resource = AttributedString(
            localized: LocalizedStringResource("\(1) items", locale: Self.de, bundle: Self.bundle))
        #expect(String(resource.characters) == "1 Element")
    }
}
