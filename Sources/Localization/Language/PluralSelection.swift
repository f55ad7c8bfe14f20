import LocalizationCore

/// What a lookup selects plural forms by, as the wire's `lookup` carries it.
enum PluralSelection: Sendable, Hashable {
    /// Nothing: a plural entry's `other` forms.
    case none
    /// One count for every variable (the wire's `count`).
    case count(PluralOperands)
    /// One count per format argument, `nil` for an argument that is not a number (the
    /// wire's `counts`, protocol 1.3).
    case counts([PluralOperands?])

    /// A single count, or none.
    init(_ count: PluralOperands?) {
        self = count.map(Self.count) ?? .none
    }

    /// The wire's `count`.
    var count: PluralOperands? {
        if case .count(let count) = self { count } else { nil }
    }

    /// The wire's `counts`.
    var counts: [PluralOperands?]? {
        if case .counts(let counts) = self { counts } else { nil }
    }

    /// `key` read from the files for `languages`, its plural forms selected by this.
    func lookup(_ key: String, in resources: ResourceSet, languages: [LanguageTag], table: String?) -> LookupResult {
        resources.lookup(key, languages: languages, table: table, count: count, counts: counts)
    }
}
