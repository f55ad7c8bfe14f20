extension TableEntry {
    /// The value for `count`: a plural entry's format with each variable's form chosen by
    /// `rules`; any other entry's plain value.
    public func value(forCount count: PluralOperands, rules: PluralRules) -> String {
        plural?.resolved(count: count, rules: rules) ?? value
    }
}
