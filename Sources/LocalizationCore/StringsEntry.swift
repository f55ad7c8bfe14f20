/// One `key = value;` pair of a `.strings` file, with where its key starts.
///
/// A file may hold the same key twice; each occurrence is its own entry, so `l10nctl lint`
/// can point at both.
public struct StringsEntry: Sendable, Hashable {
    /// The key, with its escapes resolved.
    public var key: String
    /// The value, with its escapes resolved. For the `"key";` shorthand it equals the key.
    public var value: String
    /// Where the key starts (its opening quote, or its first character when unquoted).
    public var location: SourceLocation

    /// Creates an entry.
    public init(key: String, value: String, location: SourceLocation) {
        self.key = key
        self.value = value
        self.location = location
    }
}
