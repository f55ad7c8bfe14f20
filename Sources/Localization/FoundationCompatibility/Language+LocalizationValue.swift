#if !canImport(Darwin)
    import Foundation

    extension String.LocalizationValue: LanguageProtocol {}

    extension Language where Base == String.LocalizationValue {
        /// The value looked up by its interpolation key (`%lld items`) in the `Localizable`
        /// table for this language, and formatted with its interpolated values:
        ///
        /// ```swift
        /// let items: String.LocalizationValue = "\(n) items"
        /// items.de.localized   // "3 Elemente"
        /// ```
        ///
        /// A plain `"\(n) items".de` is a `String`, interpolated before the lookup (key
        /// `3 items`): the literal must be typed as a `String.LocalizationValue`.
        public var localized: String { localized(table: nil) }

        /// The value looked up in `table` (`nil` means `Localizable`).
        public func localized(table: String?) -> String {
            // The first requested language's locale formats the arguments (`format:` styles).
            BundleLocalizers.shared.localizer(for: nil).localized(
                base, key: base.key, languages: identifiers, table: table, locale: locale)
        }
    }
#endif
