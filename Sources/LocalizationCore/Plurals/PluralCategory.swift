/// One of CLDR's plural categories, the keys of a `.stringsdict` plural rule and of an
/// `.xcstrings` `variations.plural` object.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Codable, CodingKeyRepresentable {
    case zero, one, two, few, many, other
}
