import Foundation
import LocalizationCore
import TestSupport
import Testing

@testable import Localization

/// `String(localized:)` with Apple's signatures finds the translations Xcode's String
/// Catalogs key by interpolation (`%lld items`), from a bundle's files (the fixture is laid
/// out as SwiftPM copies a target's resources), and selects plurals with the values.
@Suite(.serialized) struct StringLocalizedTests {
    init() { Localizer.shared.useResources(at: PackagePaths.sharedLocalizerRoots) }

    static let bundle = Bundle(path: PackagePaths.stringCatalog)!
    static let de = Locale(identifier: "de")

    @Test(arguments: [
        ("de", 1, "1 Element"), ("de", 3, "3 Elemente"), ("fr", 1, "1 élément"), ("fr", 2, "2 éléments"),
        ("ru", 21, "21 элемент"), ("ru", 5, "5 элементов"), ("en", 1, "1 item"), ("en", 0, "0 items"),
    ])
    func pluralVariationSelectedByTheInterpolatedCount(language: String, count: Int, expected: String) {
        let text = String(localized: "\(count) items", bundle: Self.bundle, locale: Locale(identifier: language))
        #expect(text == expected)
    }

    @Test func everyInterpolatedTypeFindsItsKeyAndFillsIt() {
        func de(_ value: String.LocalizationValue) -> String {
            String(localized: value, bundle: Self.bundle, locale: Self.de)
        }
        #expect(de("Level \(Int32(5))") == "Stufe 5")
        #expect(de("Size \(UInt(7))") == "Größe 7")
        #expect(de("Code \(UInt32(9))") == "Kennung 9")
        #expect(de("Temperature: \(21.5)") == "Temperatur: 21,500000")
        #expect(de("Ratio: \(Float(0.5))") == "Verhältnis: 0,500000")
        #expect(de("Temperature: \(CGFloat(2))") == "Temperatur: 2,000000")
        #expect(de("Total: \(12.346, specifier: "%.2f")") == "Summe: 12,35")
        #expect(de("Hello, \("Ann")!") == "Hallo, Ann!")
        #expect(de("Hello, \("Ann".prefix(2))!") == "Hallo, An!")
        #expect(de("Hello, \(Character("Z"))!") == "Hallo, Z!")
        #expect(de("Released \(Date(timeIntervalSince1970: 0), format: .iso8601)") == "Erschienen 1970-01-01T00:00:00Z")
    }

    /// Each value selects its own variable's plural form, and translations may reorder.
    @Test func severalValuesSelectAndReorder() {
        let de = { (count: Int) in
            String(localized: "\("Ann") has \(count) items", bundle: Self.bundle, locale: Self.de)
        }
        #expect(de(1) == "Ann hat 1 Element")
        #expect(de(4) == "Ann hat 4 Elemente")
        let ja = String(localized: "\("Ann") has \(3) items", bundle: Self.bundle, locale: Locale(identifier: "ja"))
        #expect(ja == "3 個のアイテム（Ann）")
    }

    @Test func percentSigns() {
        #expect(String(localized: "\(50)% done", bundle: Self.bundle, locale: Self.de) == "50 % erledigt")
        #expect(String(localized: "100% sure", bundle: Self.bundle, locale: Self.de) == "100% sicher")
        // Missing everywhere: the key, as a format, gives the text back with one `%`.
        #expect(String(localized: "\(7)% left", bundle: Self.bundle, locale: Self.de) == "7% left")
    }

    @Test func tableNamesTheFile() {
        #expect(
            String(localized: "\(3) items", table: "Inventory", bundle: Self.bundle, locale: Self.de)
                == "3 Teile im Lager")
        #expect(String(localized: "\(3) items", table: nil, bundle: Self.bundle, locale: Self.de) == "3 Elemente")
        #expect(
            String(localized: "\(3) items", table: "Localizable", bundle: Self.bundle, locale: Self.de) == "3 Elemente")
    }

    @Test func commentIsIgnored() {
        let with = String(localized: "\(3) items", bundle: Self.bundle, locale: Self.de, comment: "Shown in the cart")
        #expect(with == String(localized: "\(3) items", bundle: Self.bundle, locale: Self.de))
        #expect(with == "3 Elemente")
    }

    @Test func defaultValueIsTheTextWhenNoLanguageHasTheKey() {
        func text(_ key: StaticString, _ value: String.LocalizationValue, _ language: String) -> String {
            String(localized: key, defaultValue: value, bundle: Self.bundle, locale: Locale(identifier: language))
        }
        #expect(text("cart.count", "\(3) items in your cart", "de") == "3 Artikel im Warenkorb")
        // French lacks it: the development language has it.
        #expect(text("cart.count", "\(3) things", "fr") == "3 items in your cart")
        #expect(text("no.such.key", "\(2) things in \("Bag")", "de") == "2 things in Bag")
        #expect(text("welcome.title", "Welcome", "de") == "Willkommen")
        #expect(text("missing.title", "Welcome 100%", "de") == "Welcome 100%")
    }

    @Test(arguments: [
        ("de", "3 Elemente"), ("de_DE", "3 Elemente"), ("de-AT", "3 Elemente"), ("fr_FR", "3 éléments"),
        ("de_DE@calendar=buddhist", "3 Elemente"),
        // No Japanese entry: the development language.
        ("ja", "3 items"),
    ])
    func localeChoosesTheLanguage(identifier: String, expected: String) {
        #expect(
            String(localized: "\(3) items", bundle: Self.bundle, locale: Locale(identifier: identifier)) == expected)
    }

    @Test func regionalLocaleUsesItsRegionFirst() {
        #expect(String(localized: "Hello", bundle: Self.bundle, locale: Locale(identifier: "de_CH")) == "Grüezi")
        #expect(String(localized: "Hello", bundle: Self.bundle, locale: Locale(identifier: "de_DE")) == "Hallo")
    }

    /// `Locale.current` stands for the user's languages as gettext reads them.
    @Test func currentLocaleMeansTheEnvironmentsLanguages() {
        let german = Localizer(environment: ["LANG": "de_DE.UTF-8"], log: { _ in })
        german.useResources(at: [PackagePaths.stringCatalog])
        #expect(german.localized("\(3) items") == "3 Elemente")
        #expect(german.localized("\(3) items", locale: .autoupdatingCurrent) == "3 Elemente")
        #expect(german.localized("\(3) items", locale: Locale(identifier: "fr")) == "3 éléments")
        let preferences = Localizer(environment: ["LANGUAGE": "fr:de", "LANG": "de_DE.UTF-8"], log: { _ in })
        preferences.useResources(at: [PackagePaths.stringCatalog])
        #expect(preferences.localized("\(3) items") == "3 éléments")
        // French lacks the key: the next preferred language has it, before the development one.
        #expect(preferences.localized("cart.count", defaultValue: "\(3) in cart") == "3 Artikel im Warenkorb")
        let posix = Localizer(environment: ["LC_ALL": "C"], log: { _ in })
        posix.useResources(at: [PackagePaths.stringCatalog])
        #expect(posix.localized("\(1) items") == "1 item")
    }

    @Test func missingEverywhereIsTheKeyFormatted() {
        #expect(String(localized: "\(3) widgets", bundle: Self.bundle, locale: Self.de) == "3 widgets")
        #expect(String(localized: "Plain text", bundle: Self.bundle, locale: Self.de) == "Plain text")
    }

    /// Two bundles answer from their own files, each with its development localization.
    @Test func eachBundleAnswersFromItsOwnFiles() throws {
        let other = try TemporaryDirectory(prefix: "l10nd-bundle")
        try other.write("\"%lld items\" = \"%lld Sachen\";\n", to: "de.lproj/Localizable.strings")
        try other.write("\"%lld items\" = \"%lld choses\";\n", to: "fr.lproj/Localizable.strings")
        try other.write(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>CFBundleDevelopmentRegion</key><string>fr</string></dict></plist>\n",
            to: "Info.plist")
        let bundle = try #require(Bundle(path: other.path))
        #expect(String(localized: "\(3) items", bundle: bundle, locale: Self.de) == "3 Sachen")
        #expect(String(localized: "\(3) items", bundle: Self.bundle, locale: Self.de) == "3 Elemente")
        // Japanese is missing: the bundle's development language (French) answers.
        #expect(String(localized: "\(3) items", bundle: bundle, locale: Locale(identifier: "ja")) == "3 choses")
    }

    /// No bundle (or the main one) is the program's localizer, `Localizer.shared`.
    @Test func noBundleIsTheSharedLocalizer() {
        #expect(
            String(localized: "\(21) photos", table: "Plurals", locale: Locale(identifier: "ru")) == "21 фотография")
        #expect(
            String(localized: "\(21) photos", table: "Plurals", bundle: .main, locale: Locale(identifier: "ru"))
                == "21 фотография")
        #expect(BundleLocalizers.shared.localizer(for: nil) === Localizer.shared)
    }

    /// The seed's API reads a `String.LocalizationValue` the same way.
    @Test func languagePropertiesOfALocalizationValue() {
        let photos: String.LocalizationValue = "\(21) photos"
        #expect(photos.ru.localized(table: "Plurals") == "21 фотография")
        #expect(photos.language("fr").localized(table: "Plurals") == "21 photos")
        #expect(
            ("\(1) photos" as String.LocalizationValue).languages(["xx", "fr"]).localized(table: "Plurals") == "1 photo"
        )
        #expect("多言語化".en.localized == "Multilingualization")
        // The first language's locale formats the arguments.
        let weight: String.LocalizationValue = "\(1234.5, format: .number)"
        #expect(weight.de.localized == "1.234,5")
        #expect(weight.language("ja_JP.UTF-8").localized == "1,234.5")
    }

    /// Whether the main localizer has anything to answer from decides, per call, whether
    /// the resources beside the executable stand in for it.
    @Test func mainLocalizerIsUsedOnceConfigured() throws {
        let localizer = Localizer(environment: [:], log: { _ in })
        #expect(!localizer.isConfigured)
        let bundles = BundleLocalizers(main: localizer)
        // The test binary has no SwiftPM resource bundles beside it: the main localizer.
        #expect(bundles.localizer(for: nil) === localizer)
        localizer.useResources(at: [PackagePaths.stringCatalog])
        #expect(localizer.isConfigured)
        #expect(bundles.localizer(for: nil) === localizer)
        #expect(
            bundles.localized("\(3) items", key: "%lld items", table: nil, bundle: nil, locale: Self.de) == "3 Elemente"
        )
        localizer.useEmbedded()
        #expect(localizer.isConfigured)
        localizer.useResources(at: [])
        #expect(!localizer.isConfigured)
    }

    /// A resource made with a `Bundle` asks that same object each time (a new `Bundle(url:)`
    /// per call would be a new bundle to the localizers, its files read again); setting
    /// `bundle` drops it.
    @Test func aResourceKeepsItsBundleObject() {
        var resource = LocalizedStringResource("\(3) items", locale: Self.de, bundle: Self.bundle)
        #expect(resource.bundleObject === Self.bundle)
        #expect(
            BundleLocalizers.shared.localizer(for: resource.bundleObject)
                === BundleLocalizers.shared.localizer(for: Self.bundle))
        resource.bundle = .main
        #expect(resource.bundleObject == nil)
    }

    /// `nil`/`.main` is the executable's own resource bundle only: a library target's
    /// bundle beside it (`pkg_Lib.resources`) is the library's `Bundle.module`, not the main
    /// bundle (the attack's `More` executable read `Lib`'s strings).
    @Test func theMainBundleIsTheExecutablesOwnResourceBundleOnly() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-exe")
        try directory.write("pkg_App.resources/de.lproj/Localizable.strings")
        try directory.write("pkg_Lib.resources/Localizable.xcstrings", "{}")
        try directory.write("pkg_OtherApp.resources/Localizable.xcstrings", "{}")
        try directory.write("c.build/x.swiftmodule")
        #expect(
            BundleLocalizers.packageResourceBundles(beside: directory.path, executable: "App")
                == [directory.path + "/pkg_App.resources"])
        #expect(BundleLocalizers.packageResourceBundles(beside: directory.path, executable: "More").isEmpty)
    }
}
