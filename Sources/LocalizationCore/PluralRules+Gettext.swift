/// A language's CLDR plural categories as gettext's `Plural-Forms` header numbers them.
///
/// gettext numbers a message's plural forms `msgstr[0]`…; l10nd gives index *k* to the
/// language's *k*-th CLDR category in CLDR's order (`zero one two few many other`), every
/// category the language has, so `other` keeps its own slot even where whole numbers never
/// reach it (Russian's `other` is for fractions: `nplurals=4`, index 3 never chosen by
/// gettext's integer `n`). The `plural=` expression is the CLDR rules with `n` and `i` as
/// gettext's `n`, and every fraction operand (`v w f t c e`) as 0.
public struct GettextPluralForms: Sendable, Hashable {
    /// The categories in `msgstr[n]` order.
    public var categories: [PluralCategory]
    /// The C expression for `plural=`.
    public var expression: String

    /// `nplurals=N; plural=EXPRESSION;`
    public var header: String { "nplurals=\(categories.count); plural=\(expression);" }

    /// The forms of `language`'s CLDR cardinal rules.
    public init(language: LanguageTag) {
        let rules = PluralRules.cldr(for: language)
        let present = Set(rules.categories)
        let ordered = PluralCategory.allCases.filter { present.contains($0) }
        categories = ordered
        let index = { (category: PluralCategory) in ordered.firstIndex(of: category)! }
        var expression = String(index(.other))
        for (category, rule) in rules.rules.reversed() where category != .other {
            expression = "(\(rule.gettextCondition)) ? \(index(category)) : \(expression)"
        }
        self.expression = ordered.count == 1 ? "0" : expression
    }
}

extension PluralRule {
    /// The condition as a C expression over gettext's integer `n`.
    var gettextCondition: String {
        guard !alternatives.isEmpty else { return "1" }
        return alternatives.map { conjunction in
            conjunction.map { relation -> String in
                var operand: String
                switch relation.operand {
                case .n, .i: operand = "n"
                default: operand = "0"
                }
                if let modulus = relation.modulus { operand = "\(operand) % \(modulus)" }
                let ranges = relation.ranges.map { range in
                    range.lowerBound == range.upperBound
                        ? "\(operand) == \(range.lowerBound)"
                        : "(\(operand) >= \(range.lowerBound) && \(operand) <= \(range.upperBound))"
                }.joined(separator: " || ")
                return relation.negated ? "!(\(ranges))" : "(\(ranges))"
            }.joined(separator: " && ")
        }.map { "(\($0))" }.joined(separator: " || ")
    }
}
