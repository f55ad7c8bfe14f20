public import LocalizationCore

/// Which CLDR category each `msgstr[k]` of a `.po` file is for, found by evaluating the
/// file's own `Plural-Forms` formula on whole numbers and asking CLDR which category each
/// number takes: with French `nplurals=2; plural=(n > 1)` (Poedit, `msginit`, Crowdin),
/// `msgstr[0]` is `one` (0 and 1) and `msgstr[1]` is `other` (2…) and `many` (1000000…),
/// as `msgfmt` would show them.
///
/// When the formula gives every number the slot of this project's own export
/// (``GettextPluralForms``), the slots are that export's, in CLDR order — including the
/// categories only fractions reach (Russian `other`), which no whole number can show.
public struct GettextPluralSlots: Sendable {
    /// The `msgstr` index of each category the formula places.
    public private(set) var index: [PluralCategory: Int] = [:]
    /// Categories whose numbers the formula spreads over several `msgstr`s: none of them
    /// is given one, since no single translation is right for all their numbers.
    public private(set) var split: [PluralCategory] = []
    /// `nplurals`.
    public let count: Int

    /// The numbers tried: every number up to 1100 (CLDR's rules look at the last two or
    /// three digits) and the round millions that French, Spanish and Italian `many` take.
    static let samples: [UInt64] = Array(0...1100) + [10_000, 100_000, 1_000_000, 2_000_000, 1_000_000_000]

    /// The slots of this project's own export for `language`.
    public init(language: LanguageTag) {
        let own = GettextPluralForms(language: language)
        count = own.categories.count
        for (number, category) in own.categories.enumerated() { index[category] = number }
    }

    /// The slots `header` (a `Plural-Forms` value) gives `language`'s categories.
    /// - Throws: ``InterchangeError`` when the header cannot be read or a number's slot is
    ///   past `nplurals`.
    public init(header: String, language: LanguageTag) throws(InterchangeError) {
        let expression = try GettextPluralExpression(header: header)
        let own = Self(language: language)
        let rules = PluralRules.cldr(for: language)
        var slots: [PluralCategory: Set<Int>] = [:]
        var agrees = expression.count == own.count
        for n in Self.samples {
            let slot = try expression.index(for: n)
            guard slot < UInt64(expression.count) else {
                throw InterchangeError(
                    "Plural-Forms \"\(header)\": n = \(n) gives msgstr[\(slot)], past nplurals=\(expression.count)")
            }
            let category = rules.category(for: PluralOperands(Int(n)))
            slots[category, default: []].insert(Int(slot))
            if own.index[category] != Int(slot) { agrees = false }
        }
        count = expression.count
        if agrees {
            index = own.index
            return
        }
        for (category, found) in slots {
            if found.count == 1, let slot = found.first { index[category] = slot } else { split.append(category) }
        }
        split.sort { $0.rawValue < $1.rawValue }
    }

    /// The categories `msgstr[slot]` is written to, in CLDR order.
    public func categories(of slot: Int) -> [PluralCategory] {
        PluralCategory.allCases.filter { index[$0] == slot }
    }
}
