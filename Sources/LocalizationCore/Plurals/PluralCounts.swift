/// What a lookup selects a plural entry's forms by: the wire's `count` and `counts` as
/// one value, so that no signature carries a pair of optionals of which at most one may
/// be set.
///
/// ```swift
/// catalog.lookup("%d files in %d folders", chain: chain, plural: .counts([PluralOperands(3), PluralOperands(1)]))
/// ```
public enum PluralCounts: Sendable, Hashable {
    /// No count: a plural entry's value is its `other` forms.
    case none
    /// One count for every variable (the wire's `count`; `l10nctl get --count` given once).
    case count(PluralOperands)
    /// One count per format argument, `counts[n - 1]` for argument `n`, `nil` for an
    /// argument that is not a number (the wire's `counts`, protocol 1.3): each variable
    /// takes its form from its own argument's count, and a variable without one takes
    /// `other`.
    case counts([PluralOperands?])

    /// One count for every variable, or none when `count` is `nil`.
    public init(_ count: PluralOperands?) {
        self = count.map(Self.count) ?? .none
    }

    /// The count of format argument `position` (1-based): the one count, or that argument's
    /// own; `nil` (the `other` forms) when there is none.
    public func count(ofArgument position: Int) -> PluralOperands? {
        switch self {
        case .none: nil
        case .count(let count): count
        case .counts(let counts): counts.indices.contains(position - 1) ? counts[position - 1] : nil
        }
    }
}
