/// The `id` a client attaches to a request so it can match the reply; echoed verbatim.
///
/// JSON requests may use a string or an integer. Binary frames carry an unsigned 32-bit
/// integer, so a binary request's id is always ``number(_:)``; an id a frame cannot
/// represent (a string, or a number outside `0...UInt32.max`) is sent as `0`.
package enum WireRequestID: Sendable, Hashable, CustomStringConvertible {
    /// An integer id.
    case number(Int64)
    /// A string id.
    case string(String)

    /// The id as it appears in JSON.
    package var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let string): WireValue.string(string).jsonText
        }
    }

    /// The id as a binary frame carries it.
    var frameValue: UInt32 {
        if case .number(let number) = self, let value = UInt32(exactly: number) { return value }
        return 0
    }
}
