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
}
