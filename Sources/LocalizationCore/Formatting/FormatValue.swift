/// One format argument as a client in any language can send it: text, a whole number or a
/// floating-point number — the three kinds printf-style conversions take.
///
/// The daemon formats with these what the Swift library formats with its `CVarArg`s, by the
/// same ``LocalizedFormatter``, so a Python client gets the string a Swift program gets.
///
/// ```swift
/// let arguments = [FormatValue.string("Ana"), .integer(3)].map(\.argument)
/// try LocalizedFormatter.format("%1$@ has %2$d new messages", arguments)   // "Ana has 3 new messages"
/// ```
public enum FormatValue: Sendable, Hashable {
    /// Text, for `%@` (and `%s`).
    case string(String)
    /// A whole number (a Swift `Int`), for `%d`, `%u`, `%x`… read at the conversion's size,
    /// as Foundation reads an `Int` (`%d` of `Int.max` is `-1`); for `%f`, its value.
    case integer(Int64)
    /// A floating-point number, for `%f`, `%e`, `%g`.
    case double(Double)

    /// The value as the Swift library passes it to the formatter.
    public var argument: any CVarArg {
        switch self {
        case .string(let text): text
        case .integer(let integer): integer
        case .double(let double): double
        }
    }
}
