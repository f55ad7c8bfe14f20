import Foundation
import LocalizationCore
import TestSupport
import Testing

@testable import Localization

/// String Catalog entries the issue-11 attack found mishandled, through `String(localized:)`
/// against a bundle's own files: a key whose source unit is missing, a top-level plural of a
/// string with a string argument first, and a plural variation without `other`.
@Suite struct CatalogEdgeCaseLookupTests {
    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "cart.count" : { "localizations" : {
              "de" : { "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Artikel im Korb" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld Artikel im Korb" } }
              } } }
            } },
            "%@ has %lld items" : { "localizations" : {
              "de" : { "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "Ein Element bei %1$@" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%2$lld Elemente bei %1$@" } }
              } } }
            } },
            "%lld files" : { "localizations" : {
              "ru" : { "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld файл" } },
                "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld файла" } },
                "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld файлов" } }
              } } }
            } }
          },
          "version" : "1.0"
        }
        """

    let directory: TemporaryDirectory
    let bundle: Bundle

    init() throws {
        directory = try TemporaryDirectory()
        _ = try directory.write(Self.catalog, to: "Localizable.xcstrings")
        bundle = try #require(Bundle(path: directory.path))
    }

    /// The catalog has `cart.count` but no English unit: Xcode compiles it as English
    /// `"cart.count" = "cart.count"`, so a French reader (no French) is served that entry —
    /// found, in English — and `String(localized:defaultValue:)` shows it, as Foundation's
    /// `localizedString(forKey:value:table:)` does with a key its table has (issue 25).
    @Test func aKeyMadeSourceEntryIsFoundInTheSourceLanguage() {
        let count = 5
        let french = String(
            localized: "cart.count", defaultValue: "\(count) items in your cart", bundle: bundle,
            locale: Locale(identifier: "fr"))
        #expect(french == "cart.count")
        let german = String(
            localized: "cart.count", defaultValue: "\(count) items in your cart", bundle: bundle,
            locale: Locale(identifier: "de"))
        #expect(german == "5 Artikel im Korb")
        let resources = ResourceSet.load(roots: [directory.path])
        let result = resources.lookup("cart.count", languages: [try! LanguageTag("fr")])
        #expect(result.value == "cart.count")
        #expect(result.found)
        #expect(result.language?.identifier == "en")
    }

    /// A top-level plural of `%@ has %lld items` selects by the number, argument 2.
    @Test func topLevelPluralSelectsByTheFirstNumericArgument() throws {
        let de = Locale(identifier: "de")
        #expect(String(localized: "\("Ana") has \(1) items", bundle: bundle, locale: de) == "Ein Element bei Ana")
        #expect(String(localized: "\("Ana") has \(3) items", bundle: bundle, locale: de) == "3 Elemente bei Ana")
        let resources = ResourceSet.load(roots: [directory.path])
        let counted = resources.lookup(
            "%@ has %lld items", languages: [try LanguageTag("de")],
            plural: .counts([PluralOperands(0), PluralOperands(1)]))
        #expect(counted.value == "Ein Element bei %1$@")
    }

    /// A plural variation without `other` is served, the most general form standing in.
    @Test func pluralWithoutOtherIsServed() {
        let ru = Locale(identifier: "ru")
        #expect(String(localized: "\(21) files", bundle: bundle, locale: ru) == "21 файл")
        #expect(String(localized: "\(3) files", bundle: bundle, locale: ru) == "3 файла")
        #expect(String(localized: "\(5) files", bundle: bundle, locale: ru) == "5 файлов")
    }
}
