/// How much of the development language each language translates: per language, the
/// share of the development language's keys (over every table) it has itself, and how many
/// of those a String Catalog marks `needs_review`, `new` or `stale`.
///
/// A key counts as translated exactly when a lookup in the language serves its own text:
/// every state is served (as Xcode compiles every string unit that has a value), so every
/// state counts; the marked ones are counted beside it, as `l10nctl lint` warns of them.
/// An empty value (`"Save" = "";`) is not a translation, unless the reference's value is
/// empty too; keys a String Catalog marks `shouldTranslate: false` are not counted at all
/// (neither translated nor in the total). `l10nctl lint` reports by the same rules.
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
        /// Translated keys whose String Catalog state is `new` (served, never reviewed).
        public var new: Int = 0
        /// Translated keys whose String Catalog state is `stale` (the source no longer uses them).
        public var stale: Int = 0

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
        var total = 0
        for (name, table) in referenceTables {
            let untranslatable = catalog.untranslatableKeys[name] ?? []
            table.forEachEntry { key, _ in if !untranslatable.contains(key) { total += 1 } }
        }
        languages = catalog.tables.keys.sorted().compactMap { identifier in
            guard identifier != referenceName, identifier != LanguageTag.base.identifier,
                identifier != development
            else { return nil }
            var counts = Language(language: identifier, translated: 0, total: total, needsReview: 0)
            for (name, table) in referenceTables {
                guard let own = catalog.tables[identifier]?[name] else { continue }
                let untranslatable = catalog.untranslatableKeys[name] ?? []
                // Subscripts and forEachEntry read the table in place; `entries` builds a dictionary.
                table.forEachEntry { key, original in
                    guard let entry = own[key], !untranslatable.contains(key),
                        Self.isTranslation(entry, of: original)
                    else { return }
                    counts.translated += 1
                    switch entry.state {
                    case "needs_review": counts.needsReview += 1
                    case "new": counts.new += 1
                    case "stale": counts.stale += 1
                    default: break
                    }
                }
            }
            return counts
        }
    }

    /// Whether `entry` translates `original`: it has text, or the original has none either.
    public static func isTranslation(_ entry: TableEntry, of original: TableEntry) -> Bool {
        !entry.value.isEmpty || entry.plural != nil || (original.value.isEmpty && original.plural == nil)
    }
}
