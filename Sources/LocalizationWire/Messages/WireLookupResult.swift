/// The answer to a `lookup`.
///
/// When the key is missing everywhere, `value` is the key itself, `found` is false and
/// `language` is `nil` (the design's rule 4).
public struct WireLookupResult: Sendable, Hashable {
    /// The localized string, or the key when nothing was found.
    public var value: String
    /// Whether some language along the fallback chain had the key.
    public var found: Bool
    /// The language that served the value (BCP 47), `nil` when nothing was found.
    public var language: String?
    /// The generation of the table snapshot that answered.
    public var generation: UInt64
    /// The value formatted with the request's `args` (protocol 1.4); `nil` when it gave none.
    public var formatted: String?

    /// Creates a lookup result.
    public init(value: String, found: Bool, language: String?, generation: UInt64, formatted: String? = nil) {
        self.value = value
        self.found = found
        self.language = language
        self.generation = generation
        self.formatted = formatted
    }
}
