/// A piece of a printf-style format: literal text, `%%`, or a conversion.
public enum FormatSegment: Sendable, Hashable {
    /// Text copied as is.
    case literal(String)
    /// `%%`, a literal percent sign.
    case percent
    /// A conversion that takes an argument (or, `%#@name@`, a plural variable).
    case specifier(FormatSpecifier)

    /// The segment as written in the format.
    public var text: String {
        switch self {
        case .literal(let text): text
        case .percent: "%%"
        case .specifier(let specifier): specifier.text
        }
    }
}
