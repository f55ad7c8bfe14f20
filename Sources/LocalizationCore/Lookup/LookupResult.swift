/// The answer to one lookup: the value, whether it was found, and who served it.
public struct LookupResult: Sendable, Hashable {
    /// The localized string, or the key itself when no language has it.
    public var value: String
    /// Whether some language in the chain had the key.
    public var found: Bool
    /// The language whose table served the value; `nil` when not found.
    public var language: LanguageTag?
    /// The whole entry, with plural and device variants; `nil` when not found.
    public var entry: TableEntry?

    /// Creates a result.
    public init(value: String, found: Bool, language: LanguageTag?, entry: TableEntry?) {
        self.value = value
        self.found = found
        self.language = language
        self.entry = entry
    }

    /// The result for a key no language has: the key itself (`NSLocalizedString`'s rule).
    public static func missing(_ key: String) -> LookupResult {
        LookupResult(value: key, found: false, language: nil, entry: nil)
    }
}
