#if !canImport(Darwin)
    public import Foundation

    extension String.LocalizationValue {
        /// Builds a ``String/LocalizationValue`` from an interpolated literal: the key Xcode
        /// writes into a String Catalog, and the format arguments.
        ///
        /// | interpolated | key holds | argument |
        /// | --- | --- | --- |
        /// | `Int`, `Int64` | `%lld` | the number |
        /// | `Int32`, `Int16`, `Int8` | `%d` | the number |
        /// | `UInt`, `UInt64` | `%llu` | the number |
        /// | `UInt32`, `UInt16`, `UInt8` | `%u` | the number |
        /// | `Double`, `CGFloat` | `%lf` | the number |
        /// | `Float` | `%f` | the number |
        /// | `String`, `Substring`, `Character`, any other `CustomStringConvertible` | `%@` | its text |
        /// | `AttributedString` | `%@` | its characters |
        /// | `LocalizedStringResource` | `%@` | it, localized in the same locale |
        /// | `value, format: style` (a `FormatStyle` to `String`) | `%@` | the value formatted in the lookup's locale |
        /// | `value, specifier: "%.2f"` | the specifier as given | the value |
        public struct StringInterpolation: StringInterpolationProtocol, Sendable {
            /// The key with literal `%` doubled: what a format needs.
            var formatKey = ""
            /// The key as written, for a value that turns out to have no arguments.
            var plainKey = ""
            var arguments: [FormatArgument] = []

            /// Reserves room for the literal text and the interpolations.
            public init(literalCapacity: Int, interpolationCount: Int) {
                formatKey.reserveCapacity(literalCapacity + 4 * interpolationCount)
                arguments.reserveCapacity(interpolationCount)
            }

            /// Appends literal text (a `%` in it is `%%` in the key).
            public mutating func appendLiteral(_ literal: String) {
                plainKey += literal
                formatKey += literal.replacingOccurrences(of: "%", with: "%%")
            }

            /// Appends a number or a string as the conversion Xcode writes for its type.
            public mutating func appendInterpolation<Value: FormatSpecifiable>(_ value: Value) {
                append(Value.formatSpecifier, .value(value.formatArgument))
            }

            /// Appends a number or a string with a conversion of the caller's choice
            /// (`\(price, specifier: "%.2f")` is `%.2f` in the key).
            public mutating func appendInterpolation<Value: FormatSpecifiable>(_ value: Value, specifier: String) {
                append(specifier, .value(value.formatArgument))
            }

            /// Appends any other describable value (`Character`, `Substring`, `Bool`, an
            /// object) as `%@`, with its description as the argument.
            public mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
                append("%@", .value(value.description))
            }

            /// Appends another localizable string as `%@`, resolved in the same locale as
            /// the string it is part of (`"\(LocalizedStringResource("Hello")), \(name)"`).
            public mutating func appendInterpolation(_ value: LocalizedStringResource) {
                append(
                    "%@",
                    .formatted { locale in
                        var resource = value
                        resource.locale = locale
                        return String(localized: resource)
                    })
            }

            /// Appends an attributed string's characters as `%@`.
            public mutating func appendInterpolation(_ value: AttributedString) {
                append("%@", .value(String(value.characters)))
            }

            /// Appends `value` formatted with `format` as `%@`; the style is given the locale
            /// the string is looked up for (`\(date, format: .dateTime.year())`).
            public mutating func appendInterpolation<Style: FormatStyle>(_ value: Style.FormatInput, format: Style)
            where Style: Sendable, Style.FormatOutput == String, Style.FormatInput: Sendable {
                append("%@", .formatted { format.locale($0).format(value) })
            }

            private mutating func append(_ specifier: String, _ argument: FormatArgument) {
                formatKey += specifier
                arguments.append(argument)
            }
        }
    }
#endif
