/// The answer to a `batch`: one value and one found flag per requested key, in order.
public struct WireBatchResult: Sendable, Hashable {
    /// The values, each the key itself when it was found nowhere.
    public var values: [String]
    /// Whether each key was found; as long as `values`.
    public var found: [Bool]
    /// The generation of the table snapshot that answered.
    public var generation: UInt64

    /// Creates a batch result.
    public init(values: [String], found: [Bool], generation: UInt64) {
        self.values = values
        self.found = found
        self.generation = generation
    }
}
