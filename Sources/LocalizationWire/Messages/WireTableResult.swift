/// The answer to a `table`: every key resolved through the fallback chain.
public struct WireTableResult: Sendable, Hashable {
    /// The resolved values by key.
    public var entries: [String: String]
    /// The language that served each key; may be empty when the daemon does not say.
    public var languages: [String: String]
    /// The generation of the table snapshot that answered.
    public var generation: UInt64

    /// Creates a table result.
    public init(entries: [String: String], languages: [String: String] = [:], generation: UInt64) {
        self.entries = entries
        self.languages = languages
        self.generation = generation
    }
}
