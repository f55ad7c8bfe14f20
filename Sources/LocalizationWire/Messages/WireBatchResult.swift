/// The answer to a `batch`: one value and one found flag per requested key, in order.
public struct WireBatchResult: Sendable, Hashable {
    /// The values, each the key itself when it was found nowhere.
    public var values: [String]
    /// Whether each key was found; as long as `values`.
    public var found: [Bool]
    /// The generation of the table snapshot that answered.
    public var generation: UInt64
    /// Each value formatted with its key's `args` (protocol 1.4), `nil` for a key given
    /// none; `nil` altogether when the request had no `args`.
    public var formatted: [String?]?

    /// Creates a batch result.
    public init(values: [String], found: [Bool], generation: UInt64, formatted: [String?]? = nil) {
        self.values = values
        self.found = found
        self.generation = generation
        self.formatted = formatted
    }
}
