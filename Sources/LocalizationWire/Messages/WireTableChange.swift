/// One table of one language that a reload changed, as listed in a `changed` event.
public struct WireTableChange: Sendable, Hashable {
    /// The language (BCP 47, or `Base`).
    public var language: String
    /// The table name, e.g. `Localizable`.
    public var table: String

    /// Creates a change entry.
    public init(language: String, table: String) {
        self.language = language
        self.table = table
    }
}
