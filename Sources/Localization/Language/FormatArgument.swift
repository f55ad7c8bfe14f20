#if !canImport(Darwin)
    import Foundation

    /// One interpolated value of a `String.LocalizationValue`: a value passed to the format as
    /// it is, or one formatted into text in the language the string is looked up in.
    enum FormatArgument: Sendable {
        /// A number or a string, given to the format unchanged (numbers also select plurals).
        case value(any CVarArg & Sendable)
        /// Text made with a format style in the lookup's locale (`%@`).
        case formatted(@Sendable (Locale) -> String)

        /// The argument for a format in `locale`.
        func value(in locale: Locale) -> any CVarArg {
            switch self {
            case .value(let value): value
            case .formatted(let format): format(locale)
            }
        }
    }
#endif
