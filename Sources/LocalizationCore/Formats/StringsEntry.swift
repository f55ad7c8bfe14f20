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
    /// The byte offset of the key in the UTF-8 text (after any byte order mark; UTF-16
    /// files count in their UTF-8 transcoding); `nil` for property list files.
    public var keyOffset: Int?
    /// The bytes of the value as written, quotes included, in the same text; an empty range
    /// just after the key for the `"key";` shorthand. `nil` for property list files. Lets an
    /// import replace one value and keep every other byte.
    public var valueRange: Range<Int>?

    /// Creates an entry.
    public init(
        key: String, value: String, location: SourceLocation, keyOffset: Int? = nil, valueRange: Range<Int>? = nil
    ) {
        self.key = key
        self.value = value
        self.location = location
        self.keyOffset = keyOffset
        self.valueRange = valueRange
    }
}
