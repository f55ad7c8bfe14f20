/// How much of the development language each language translates: per language, the
/// share of the development language's keys (over every table) it has itself, and how many
/// of those a String Catalog marks `needs_review`.
///
/// ```swift
/// let coverage = TranslationCoverage(catalog: ResourceSet.load(roots: ["Examples/Resources"]).catalog)
/// coverage.languages.first { $0.language == "ja" }?.fraction
/// ```
public struct TranslationCoverage: Sendable, Hashable {
    /// One language's numbers.
    public struct Language: Sendable, Hashable {
        /// The language identifier (`ja`, `pt-BR`).
        public var language: String
        /// Reference keys this language has.
        public var translated: Int
        /// Reference keys in all.
        public var total: Int
        /// Translated keys whose String Catalog state is `needs_review`.
        public var needsReview: Int

        /// `translated / total`, 1 when there is nothing to translate.
        public var fraction: Double { total == 0 ? 1 : Double(translated) / Double(total) }
    }

    /// The language translations are measured against (the development language, else `Base`).
    public var reference: String
    /// Every other language, sorted by identifier (`Base` and pseudo-languages excluded).
    public var languages: [Language]

    /// Measures `catalog` against its development language's tables, or `Base`'s when the
    /// development language has none.
    public init(catalog: ResourceCatalog) {
        let development = catalog.developmentLanguage.identifier
        let referenceName = catalog.tables[development] != nil ? development : LanguageTag.base.identifier
        let referenceTables = catalog.tables[referenceName] ?? [:]
        reference = referenceName
        let total = referenceTables.values.reduce(0) { $0 + $1.count }
        languages = catalog.tables.keys.sorted().compactMap { identifier in
            guard identifier != referenceName, identifier != LanguageTag.base.identifier,
                identifier != development
            else { return nil }
            var translated = 0
            var needsReview = 0
            for (name, table) in referenceTables {
                guard let own = catalog.tables[identifier]?[name] else { continue }
                // Subscripts and forEachEntry read the table in place; `entries` builds a dictionary.
                table.forEachEntry { key, _ in
                    guard let entry = own[key], entry.state != "new" else { return }
                    translated += 1
                    if entry.state == "needs_review" { needsReview += 1 }
                }
            }
            return Language(language: identifier, translated: translated, total: total, needsReview: needsReview)
        }
    }
}
