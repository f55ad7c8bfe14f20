import Foundation
import TestSupport
import Testing

@testable import Localization

/// `String(localized:)` through a real `l10nd`: the daemon selects the plural forms by the
/// interpolated values, in both daemon modes, and a bundle whose resources the daemon
/// serves is answered by it, while a bundle it does not serve is read from its own files.
@Suite struct StringLocalizedDaemonTests {
    static let de = Locale(identifier: "de")

    @Test(arguments: [LookupMode.mapped, .direct])
    func interpolatedValuesSelectThroughTheDaemon(mode: LookupMode) throws {
        let (localizer, daemon) = try PluralArgumentsDaemonTests.localizer(mode, resources: PackagePaths.stringCatalog)
        defer { withExtendedLifetime(daemon) {} }
        #expect(localizer.source == .daemon)
        #expect(localizer.localized("\(1) items", locale: Self.de) == "1 Element")
        #expect(localizer.localized("\(3) items", locale: Self.de) == "3 Elemente")
        #expect(localizer.localized("\(21) items", locale: Locale(identifier: "ru")) == "21 элемент")
        #expect(localizer.localized("\("Ann") has \(1) items", locale: Self.de) == "Ann hat 1 Element")
        #expect(localizer.localized("\(3) items", table: "Inventory", locale: Self.de) == "3 Teile im Lager")
        #expect(
            localizer.localized("cart.count", defaultValue: "\(2) in cart", locale: Self.de) == "2 Artikel im Warenkorb"
        )
        #expect(localizer.localized("no.such.key", defaultValue: "\(2) in cart", locale: Self.de) == "2 in cart")
        #expect(localizer.localized("100% sure", locale: Self.de) == "100% sicher")
        #expect(localizer.source == .daemon)
    }

    @Test func bundleServedByTheDaemonIsAnsweredByIt() throws {
        let (localizer, daemon) = try PluralArgumentsDaemonTests.localizer(
            .mapped, resources: PackagePaths.stringCatalog)
        defer { withExtendedLifetime(daemon) {} }
        let bundles = BundleLocalizers(main: localizer)
        let served = try #require(Bundle(path: PackagePaths.stringCatalog))
        #expect(bundles.localizer(for: served) === localizer)
        #expect(
            bundles.localized("\(1) items", key: "%lld items", table: nil, bundle: served, locale: Self.de)
                == "1 Element")
        #expect(localizer.source == .daemon)

        let other = try TemporaryDirectory(prefix: "l10nd-bundle")
        try other.write("\"%lld items\" = \"%lld Sachen\";\n", to: "de.lproj/Localizable.strings")
        let unserved = try #require(Bundle(path: other.path))
        let files = bundles.localizer(for: unserved)
        #expect(files !== localizer)
        #expect(files.mode == .embedded)
        #expect(
            bundles.localized("\(3) items", key: "%lld items", table: nil, bundle: unserved, locale: Self.de)
                == "3 Sachen")
    }
}
