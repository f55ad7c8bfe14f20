extension FallbackChain {
    /// The languages a lookup in a table tries: these candidates, with the table's String
    /// Catalog source language (its ``expansion(of:)``, `source`) placed before the
    /// development language where the chain lacks it, so a key only a `de`-sourced
    /// catalog's `de` has is found from `fr`.
    package func languages(withSource source: [LanguageTag]?) -> (languages: [LanguageTag], identifiers: [String]) {
        guard let source else { return (candidates, identifiers) }
        let extra = source.filter { !identifiers.contains($0.identifier) }
        guard !extra.isEmpty else { return (candidates, identifiers) }
        var languages = candidates
        languages.insert(contentsOf: extra, at: developmentStart)
        return (languages, languages.map(\.identifier))
    }
}
