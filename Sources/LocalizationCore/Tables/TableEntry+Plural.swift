extension TableEntry {
    /// The value for `counts`: a plural entry's format with each variable's form chosen by
    /// `rules` (``PluralFormat/resolved(_:rules:)``); any other entry's plain value, and a
    /// plural entry's own value when there is no count.
    public func value(for counts: PluralCounts, rules: PluralRules) -> String {
        guard let plural, counts != .none else { return value }
        return plural.resolved(counts, rules: rules)
    }
}
