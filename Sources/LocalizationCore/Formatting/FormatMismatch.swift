/// A format whose conversions do not fit the arguments given: too few, or of the wrong
/// kind (`%d` for a `String`). Lint reports the same problem in translations ahead of time.
public struct FormatMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format that was being applied.
    public var format: String
    /// What did not fit.
    public var message: String

    /// Creates a mismatch.
    public init(format: String, message: String) {
        self.format = format
        self.message = message
    }

    /// `"format": message`.
    public var description: String { "\"\(format)\": \(message)" }
}
