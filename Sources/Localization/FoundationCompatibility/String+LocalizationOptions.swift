#if !canImport(Darwin)
    public import Foundation

    extension String {
        /// Options for a localized string, as Apple's Foundation declares them (iOS 16).
        public struct LocalizationOptions: @unchecked Sendable {  // Apple's CVarArg values are not Sendable.
            /// The values that fill the string's conversions, in place of its interpolated
            /// values (Apple fills its `\(placeholder:)` conversions with them; l10nd has no
            /// placeholder interpolation, so they replace the arguments one by one).
            public var replacements: [any CVarArg]?

            /// No options.
            public init() {}
        }

        /// The localized string for `keyAndValue`, with `options` applied; Apple's signature.
        public init(
            localized keyAndValue: String.LocalizationValue, options: String.LocalizationOptions, table: String? = nil,
            bundle: Bundle? = nil, locale: Locale = .current, comment: StaticString? = nil
        ) {
            self = BundleLocalizers.shared.localized(
                keyAndValue.replacing(options.replacements), key: keyAndValue.key, table: table, bundle: bundle,
                locale: locale)
        }

        /// The localized string for `key`, `defaultValue` when no language has it, with
        /// `options` applied; Apple's signature.
        public init(
            localized key: StaticString, defaultValue: String.LocalizationValue, options: String.LocalizationOptions,
            table: String? = nil, bundle: Bundle? = nil, locale: Locale = .current, comment: StaticString? = nil
        ) {
            self = BundleLocalizers.shared.localized(
                defaultValue.replacing(options.replacements), key: key.description, table: table, bundle: bundle,
                locale: locale)
        }

        /// `resource` resolved with `options` applied; Apple's signature.
        public init(localized resource: LocalizedStringResource, options: String.LocalizationOptions) {
            var replaced = resource
            replaced.defaultValue = resource.defaultValue.replacing(options.replacements)
            self.init(localized: replaced)
        }
    }

    extension String.LocalizationValue {
        /// This value with its arguments replaced by `replacements` (kept when `nil`); the key
        /// stays the same. Numbers and strings are passed as they are; any other value as its
        /// description.
        func replacing(_ replacements: [any CVarArg]?) -> Self {
            guard let replacements else { return self }
            let arguments = replacements.map { value -> FormatArgument in
                switch value {
                case let number as Int: .value(number)
                case let number as Int64: .value(number)
                case let number as Int32: .value(number)
                case let number as UInt: .value(number)
                case let number as UInt64: .value(number)
                case let number as UInt32: .value(number)
                case let number as Double: .value(number)
                case let number as Float: .value(number)
                case let text as String: .value(text)
                default: .value(String(describing: value))
                }
            }
            return Self(key: key, arguments: arguments)
        }
    }
#endif
