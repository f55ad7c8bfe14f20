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
        // Fraction operands are 0 for gettext's integer `n`: their relations are constants,
        // folded away.
        let alternatives = alternatives.compactMap { conjunction -> String? in
            var terms: [String] = []
            for relation in conjunction {
                guard relation.operand == .n || relation.operand == .i else {
                    if relation.ranges.contains(where: { $0.contains(0) }) == relation.negated { return nil }
                    continue
                }
                let operand = relation.modulus.map { "n % \($0)" } ?? "n"
                let ranges = relation.ranges.map { range in
                    range.lowerBound == range.upperBound
                        ? "\(operand) == \(range.lowerBound)"
                        : "(\(operand) >= \(range.lowerBound) && \(operand) <= \(range.upperBound))"
                }.joined(separator: " || ")
                terms.append(relation.negated ? "!(\(ranges))" : "(\(ranges))")
            }
            return terms.isEmpty ? "1" : terms.joined(separator: " && ")
        }
        return alternatives.isEmpty ? "0" : alternatives.map { "(\($0))" }.joined(separator: " || ")
    }
}
