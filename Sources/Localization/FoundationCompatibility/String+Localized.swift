#if !canImport(Darwin)
    public import Foundation

    extension String {
        /// The localized string for `keyAndValue`, with Apple's signature: the key is the
        /// literal with each interpolation as the conversion Xcode writes for its type
        /// (`"\(n) items"` is `%lld items`), and the interpolated values fill the translation
        /// and select its plural forms.
        ///
        /// - Parameters:
        ///   - table: the table (`nil` means `Localizable`).
        ///   - bundle: whose resources answer (``BundleLocalizers``): `nil` is the program's
        ///     localizer, ``Localizer/shared``; a SwiftPM `Bundle.module` its own files, or
        ///     `l10nd` when the daemon serves them.
        ///   - locale: the language; `.current` means the user's languages (`LANGUAGE`, `LANG`…).
        ///   - comment: for translators; ignored at run time, as on Apple platforms.
        ///
        /// ```swift
        /// String(localized: "\(3) items", locale: Locale(identifier: "de"))   // "3 Elemente"
        /// ```
        public init(
            localized keyAndValue: String.LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
            locale: Locale = .current, comment: StaticString? = nil
        ) {
            self = BundleLocalizers.shared.localized(
                keyAndValue, key: keyAndValue.key, table: table, bundle: bundle, locale: locale)
        }

        /// The localized string for `key`, formatted with `defaultValue`'s interpolated values;
        /// `defaultValue` (formatted) when no language has `key`. Apple's signature; the
        /// parameters are those of ``init(localized:table:bundle:locale:comment:)``.
        ///
        /// ```swift
        /// String(localized: "cart.count", defaultValue: "\(n) items in your cart")
        /// ```
        public init(
            localized key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil,
            bundle: Bundle? = nil, locale: Locale = .current, comment: StaticString? = nil
        ) {
            self = BundleLocalizers.shared.localized(
                defaultValue, key: key.description, table: table, bundle: bundle, locale: locale)
        }
    }
#endif
