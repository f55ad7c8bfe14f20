#if !canImport(Darwin)
    public import Foundation

    extension String {
        /// A localizable string as Apple's Foundation models it: the key a String Catalog holds
        /// for a literal, and the values interpolated into it as format arguments.
        ///
        /// Foundation on Linux has no `String.LocalizationValue`; this is its stand-in, so that
        /// code written for Apple platforms compiles unchanged. An interpolation becomes the
        /// conversion Xcode writes into the catalog's key (``FormatSpecifiable``), and its value
        /// becomes that conversion's argument, which also selects plural forms:
        ///
        /// ```swift
        /// let value: String.LocalizationValue = "\(3) items"
        /// value.key                                                    // "%lld items"
        /// String(localized: value, locale: Locale(identifier: "de"))  // "3 Elemente"
        /// value.de.localized                                           // the same, in the seed's style
        /// ```
        ///
        /// Literal text keeps its `%` signs as `%%` once the value has an interpolation (the key
        /// is then a format, as in Xcode's catalogs); a value without one is looked up and
        /// returned as written.
        public struct LocalizationValue: Sendable, ExpressibleByStringInterpolation {
            /// The key this value is looked up by: the literal, with each interpolation as its
            /// conversion (`%lld items`). An addition of l10nd's; Apple's type keeps it private.
            public let key: String
            let arguments: [FormatArgument]

            /// A value whose key is `value` as it is, with no arguments.
            public init(_ value: String) {
                key = value
                arguments = []
            }

            /// A value with `key` and these `arguments` (``replacing(_:)``).
            init(key: String, arguments: [FormatArgument]) {
                self.key = key
                self.arguments = arguments
            }

            /// A value from a literal without interpolations.
            public init(stringLiteral value: String) {
                self.init(value)
            }

            /// A value from an interpolated literal: ``StringInterpolation`` has built the key.
            public init(stringInterpolation: StringInterpolation) {
                key =
                    stringInterpolation.arguments.isEmpty ? stringInterpolation.plainKey : stringInterpolation.formatKey
                arguments = stringInterpolation.arguments
            }

            /// The interpolated values, as the arguments of a format in `locale` (which formats
            /// the values given with a `format:` style). An addition of l10nd's.
            public func formatArguments(locale: Locale) -> [any CVarArg] {
                arguments.map { $0.value(in: locale) }
            }
        }
    }

    extension String.LocalizationValue: Hashable {
        /// Equal when the keys are, and the arguments read the same in the POSIX locale.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.key == rhs.key && lhs.argumentTexts == rhs.argumentTexts
        }

        /// Hashes the key and the arguments' texts, as ``==`` compares them.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(argumentTexts)
        }

        private var argumentTexts: [String] {
            formatArguments(locale: Locale(identifier: "en_US_POSIX")).map { "\($0)" }
        }
    }
#endif
