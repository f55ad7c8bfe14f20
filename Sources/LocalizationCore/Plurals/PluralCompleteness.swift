/// Plural entries whose forms do not cover their language's CLDR categories: Russian needs
/// `one`, `few`, `many` and `other`, so a `.stringsdict` with only `one` and `other` shows
/// "5 файл" where "5 файлов" belongs (a missing form falls back to `other`).
///
/// `zero` is never required: Apple's zero case is an optional extra in every language.
/// `Base` is held to the development language's categories, whose text it holds;
/// pseudo-languages are left out.
///
/// ```swift
/// let gaps = PluralCompleteness(catalog: set.catalog).languages.first { $0.language == "ru" }?.gaps
/// ```
public struct PluralCompleteness: Sendable, Hashable {
    /// One variable of one entry lacking forms.
    public struct Gap: Sendable, Hashable {
        /// The table (`Localizable`).
        public var table: String
        /// The entry's key.
        public var key: String
        /// The variable (`_` for a String Catalog's top-level plural variation).
        public var variable: String
        /// The categories the language uses that the variable has no form for.
        public var missing: [PluralCategory]
    }

    /// One language's plural entries.
    public struct Language: Sendable, Hashable {
        /// The language identifier.
        public var language: String
        /// The categories its CLDR rules use, `other` last.
        public var categories: [PluralCategory]
        /// How many plural entries it has.
        public var entries: Int
        /// The variables lacking forms, by table and key.
        public var gaps: [Gap]
    }

    /// Every language with plural entries, sorted by identifier.
    public var languages: [Language]

    /// Checks every plural entry of `catalog`.
    public init(catalog: ResourceCatalog) {
        languages = catalog.tables.keys.sorted().compactMap { identifier in
            guard PseudoLocalization(rawValue: identifier) == nil, let tag = try? LanguageTag(identifier) else {
                return nil
            }
            let categories = catalog.pluralRules(for: tag).categories
            var language = Language(language: identifier, categories: categories, entries: 0, gaps: [])
            for (table, entries) in (catalog.tables[identifier] ?? [:]).sorted(by: { $0.key < $1.key }) {
                var gaps: [Gap] = []
                entries.forEachEntry { key, entry in
                    guard let plural = entry.plural else { return }
                    language.entries += 1
                    for (name, variable) in plural.variables {
                        let missing = categories.filter { $0 != .zero && variable.forms[$0] == nil }
                        if !missing.isEmpty {
                            gaps.append(Gap(table: table, key: key, variable: name, missing: missing))
                        }
                    }
                }
                language.gaps += gaps.sorted { ($0.key, $0.variable) < ($1.key, $1.variable) }
            }
            return language.entries == 0 ? nil : language
        }
    }
}
