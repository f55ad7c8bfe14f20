/// One language's cardinal plural rules: which ``PluralCategory`` a number takes.
///
/// ```swift
/// let russian = PluralRules.cldr(for: try LanguageTag("ru"))
/// russian.category(for: PluralOperands(21))   // .one
/// ```
public struct PluralRules: Sendable, Hashable {
    /// The rules in CLDR's order; a number takes the first category whose rule matches.
    public let rules: [(category: PluralCategory, rule: PluralRule)]

    /// Rules that put every number in `other` (CLDR's `root`, and what unknown data gives).
    public static let otherOnly = PluralRules(rules: [])

    /// Creates rules from ordered (category, rule) pairs; `other` need not be listed.
    public init(rules: [(category: PluralCategory, rule: PluralRule)]) {
        self.rules = rules
    }

    /// The categories a number may take, `other` last.
    public var categories: [PluralCategory] {
        rules.map(\.category).filter { $0 != .other } + [.other]
    }

    /// The category of `operands`: the first rule that matches, else `other`.
    public func category(for operands: PluralOperands) -> PluralCategory {
        for (category, rule) in rules where category != .other && rule.matches(operands) {
            return category
        }
        return .other
    }

    /// The rules CLDR gives `language` (from ``CLDRPluralData/system``), tried as written,
    /// then without region and script; `root`'s (everything `other`) for a language CLDR
    /// does not list.
    public static func cldr(for language: LanguageTag) -> PluralRules {
        CLDRPluralData.system.rules(for: language) ?? .otherOnly
    }

    /// The ordinal rules CLDR gives `language` (`1st`, `2nd`: English's `one`, `two`, `few`),
    /// from ``CLDRPluralData/systemOrdinals``.
    public static func cldrOrdinal(for language: LanguageTag) -> PluralRules {
        CLDRPluralData.systemOrdinals.rules(for: language) ?? .otherOnly
    }

    /// Whether both have the same rules for the same categories, in the same order.
    public static func == (lhs: PluralRules, rhs: PluralRules) -> Bool {
        lhs.rules.map(\.category) == rhs.rules.map(\.category) && lhs.rules.map(\.rule) == rhs.rules.map(\.rule)
    }

    /// Hashes the categories and rules, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        for (category, rule) in rules {
            hasher.combine(category)
            hasher.combine(rule)
        }
    }
}
