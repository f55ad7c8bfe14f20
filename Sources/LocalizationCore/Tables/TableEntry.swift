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
    /// Whether this is a String Catalog's source-language entry made from the key because the
    /// catalog has no source-language unit for it (``StringCatalogReader``). Xcode compiles
    /// such a key as the source language's `key = key`, so a lookup finds it there (`found`,
    /// in the source language), as on a device; it is no text anyone wrote, so lint compares
    /// nothing against it (unless the key is itself a format).
    public var isSourceKeyStandIn = false

    // The stand-in mark is the reader's, recomputed on every read: it is not written out.
    private enum CodingKeys: String, CodingKey {
        case value, plural, deviceVariants, state
    }

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
