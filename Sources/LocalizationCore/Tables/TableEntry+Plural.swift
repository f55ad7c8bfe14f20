extension TableEntry {
    /// The value for `count`: a plural entry's format with each variable's form chosen by
    /// `rules`; any other entry's plain value.
    public func value(forCount count: PluralOperands, rules: PluralRules) -> String {
        plural?.resolved(count: count, rules: rules) ?? value
    }

    /// The value for `counts`, one per format argument (``PluralFormat/resolved(counts:rules:)``):
    /// a plural entry's format with each variable's form chosen by its own argument; any
    /// other entry's plain value.
    public func value(forCounts counts: [PluralOperands?], rules: PluralRules) -> String {
        plural?.resolved(counts: counts, rules: rules) ?? value
    }
}
