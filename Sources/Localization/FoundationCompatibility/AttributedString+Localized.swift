#if !canImport(Darwin)
    public import Foundation

    extension AttributedString {
        /// Apple's formatting options for a localized attributed string (iOS 15). Foundation
        /// on Linux has `AttributedString` but not these initializers, so code written for
        /// Apple platforms would not compile without them.
        public struct FormattingOptions: OptionSet, Sendable, Hashable {
            /// The option's bit.
            public let rawValue: UInt
            /// An option from its bit.
            public init(rawValue: UInt) { self.rawValue = rawValue }
            /// On Apple platforms, marks each interpolated value with its replacement index.
            /// Accepted and ignored here: the result carries no attributes (see below).
            public static let applyReplacementIndexAttribute = FormattingOptions(rawValue: 1 << 0)
        }

        /// The localized string for `keyAndValue` as a plain attributed string, with Apple's
        /// signature (iOS 15).
        ///
        /// The text is exactly what `String(localized:table:bundle:locale:comment:)` returns
        /// for the same arguments, with no attributes: the Markdown Apple's initializer reads
        /// from a translation (`**bold**`, links, inflection `^[…](inflect: true)`) is left
        /// as written, and `options` changes nothing. `locale: nil` means the user's languages.
        ///
        /// ```swift
        /// AttributedString(localized: "\(3) items", locale: Locale(identifier: "de"))   // "3 Elemente"
        /// ```
        public init(
            localized keyAndValue: String.LocalizationValue, options: FormattingOptions = [], table: String? = nil,
            bundle: Bundle? = nil, locale: Locale? = nil, comment: StaticString? = nil
        ) {
            self.init(String(localized: keyAndValue, table: table, bundle: bundle, locale: locale ?? .current))
        }

        /// The localized string for `key` as a plain attributed string, `defaultValue` when no
        /// language has it; Apple's signature (iOS 15), as
        /// ``init(localized:options:table:bundle:locale:comment:)`` describes.
        public init(
            localized key: StaticString, defaultValue: String.LocalizationValue, options: FormattingOptions = [],
            table: String? = nil, bundle: Bundle? = nil, locale: Locale? = nil, comment: StaticString? = nil
        ) {
            self.init(
                String(
                    localized: key, defaultValue: defaultValue, table: table, bundle: bundle,
                    locale: locale ?? .current))
        }

        /// `resource` resolved as a plain attributed string (iOS 16).
        public init(localized resource: LocalizedStringResource) {
            self.init(String(localized: resource))
        }
    }
#endif
