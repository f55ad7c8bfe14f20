#if !canImport(Darwin)
    public import Foundation

    /// A localizable string to be resolved later, as Apple's Foundation declares it (iOS 16):
    /// the key, the value in the development language, the table, locale and bundle.
    ///
    /// `String(localized:)` resolves it exactly as ``Swift/String/init(localized:table:bundle:locale:comment:)``
    /// resolves its arguments.
    ///
    /// ```swift
    /// let title: LocalizedStringResource = "\(3) items"
    /// String(localized: title)   // in the user's language
    /// let german = LocalizedStringResource("\(3) items", locale: Locale(identifier: "de"), bundle: .atURL(url))
    /// ```
    public struct LocalizedStringResource: Sendable, ExpressibleByStringInterpolation,
        CustomLocalizedStringResourceConvertible
    {
        /// Where the resource's strings are: Apple's cases.
        public enum BundleDescription: @unchecked Sendable {  // A class object is immutable.
            /// The program's own localizations (``Localizer/shared``).
            case main
            /// The bundle that holds `aClass` (on Linux, usually the main one).
            case forClass(AnyClass)
            /// The bundle at `url` (a SwiftPM `Bundle.module`'s `bundleURL`).
            case atURL(URL)

            /// `.main` for the main bundle, else the bundle at its URL.
            init(_ bundle: Bundle) {
                self = bundle === Bundle.main ? .main : .atURL(bundle.bundleURL)
            }

            /// The `bundle:` argument this stands for (`nil` for the main bundle).
            var bundle: Bundle? {
                switch self {
                case .main: nil
                case .forClass(let aClass): Bundle(for: aClass)
                case .atURL(let url): Bundle(url: url)
                }
            }
        }

        /// The key looked up.
        public let key: String
        /// The development language's value: the key and interpolated arguments.
        public var defaultValue: String.LocalizationValue
        /// The table (`nil` means `Localizable`).
        public var table: String?
        /// The language to resolve in; `.current` means the user's languages.
        public var locale: Locale
        /// Where the strings are.
        public var bundle: BundleDescription {
            didSet { bundleObject = nil }
        }
        /// The `Bundle` a resource was made with (`bundle: Bundle`), kept so each resolution
        /// asks the same object: a `Bundle(url:)` made anew per call would be a new bundle to
        /// ``BundleLocalizers``, whose files would be read again. Dropped when `bundle` is set.
        private(set) var bundleObject: Bundle?

        /// A resource keyed by `keyAndValue`'s key (`"\(n) items"` is `%lld items`).
        public init(
            _ keyAndValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current,
            bundle: BundleDescription = .main, comment: StaticString? = nil
        ) {
            self.init(key: keyAndValue.key, defaultValue: keyAndValue, table: table, locale: locale, bundle: bundle)
        }

        /// A resource keyed by `key`, whose development-language value is `defaultValue`.
        public init(
            _ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil,
            locale: Locale = .current,
            bundle: BundleDescription = .main, comment: StaticString? = nil
        ) {
            self.init(key: key.description, defaultValue: defaultValue, table: table, locale: locale, bundle: bundle)
        }

        /// A resource keyed by `keyAndValue`'s key, in `bundle`; Apple's `bundle: Bundle`
        /// signature (`Bundle.main` is ``BundleDescription/main``). Disfavoured so that
        /// `bundle: .main` keeps meaning ``BundleDescription/main``.
        @_disfavoredOverload
        public init(
            _ keyAndValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current, bundle: Bundle,
            comment: StaticString? = nil
        ) {
            self.init(keyAndValue, table: table, locale: locale, bundle: BundleDescription(bundle), comment: comment)
            bundleObject = bundle
        }

        /// A resource keyed by `key`, whose development-language value is `defaultValue`, in
        /// `bundle`; Apple's `bundle: Bundle` signature.
        @_disfavoredOverload
        public init(
            _ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil,
            locale: Locale = .current, bundle: Bundle, comment: StaticString? = nil
        ) {
            self.init(
                key, defaultValue: defaultValue, table: table, locale: locale, bundle: BundleDescription(bundle),
                comment: comment)
            bundleObject = bundle
        }

        /// A resource from a literal without interpolations.
        public init(stringLiteral value: String) {
            self.init(String.LocalizationValue(value))
        }

        /// A resource from an interpolated literal.
        public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
            self.init(String.LocalizationValue(stringInterpolation: stringInterpolation))
        }

        private init(
            key: String, defaultValue: String.LocalizationValue, table: String?, locale: Locale,
            bundle: BundleDescription
        ) {
            self.key = key
            self.defaultValue = defaultValue
            self.table = table
            self.locale = locale
            self.bundle = bundle
        }
    }

    /// A type that describes itself as a localizable string resolved later, possibly in another
    /// locale, as Apple's Foundation declares it (iOS 16): the localizable counterpart of
    /// `CustomStringConvertible`.
    public protocol CustomLocalizedStringResourceConvertible {
        /// The resource that describes this value.
        var localizedStringResource: LocalizedStringResource { get }
    }

    extension LocalizedStringResource {
        /// The resource itself.
        public var localizedStringResource: LocalizedStringResource { self }
    }

    extension String {
        /// `resource` resolved in its locale, from its bundle and table.
        public init(localized resource: LocalizedStringResource) {
            self = BundleLocalizers.shared.localized(
                resource.defaultValue, key: resource.key, table: resource.table,
                bundle: resource.bundleObject ?? resource.bundle.bundle,
                locale: resource.locale)
        }
    }
#endif
