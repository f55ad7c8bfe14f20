/// One localized entry of a table, whichever file format it came from.
public struct TableEntry: Sendable, Hashable, Codable {
    /// The string a plain lookup returns. For a plural entry, its `other` forms.
    public var value: String
    /// The plural variants, for `.stringsdict` entries and `.xcstrings` plural variations.
    public var plural: PluralFormat?
    /// `.xcstrings` `variations.device` values by device name (`mac`, `iphone`, `other`…).
    public var deviceVariants: [String: String]
    /// `.xcstrings` `stringUnit.state` (`translated`, `needs_review`, `new`, `stale`).
    public var state: String?

    /// Creates an entry.
    public init(
        value: String,
        plural: PluralFormat? = nil,
        deviceVariants: [String: String] = [:],
        state: String? = nil
    ) {
        self.value = value
        self.plural = plural
        self.deviceVariants = deviceVariants
        self.state = state
    }
}
