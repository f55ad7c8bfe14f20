/// The tags a ``Language`` carries: usually one, stored without an array so that
/// `"key".ja` allocates nothing.
@usableFromInline
enum LanguageList: Sendable, Hashable {
    case one(String)
    case many([String])

    /// The tags, most preferred first.
    var tags: [String] {
        switch self {
        case .one(let tag): [tag]
        case .many(let tags): tags
        }
    }

    /// A key naming these tags and `table` for a thread's table cache. Short enough for
    /// Swift's inline small strings in the common case (`ja` + `Localizable`), so building
    /// it allocates nothing. The separators are control characters no tag contains.
    func cacheKey(table: String?) -> String {
        switch self {
        case .one(let tag): tag + "\u{1E}" + (table ?? "")
        case .many(let tags): tags.joined(separator: "\u{1F}") + "\u{1E}" + (table ?? "")
        }
    }
}
