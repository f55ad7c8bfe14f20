/// How much of its reference text each language translates: per language, the share of the
/// reference keys (over every table) it has itself, and how many of those a String Catalog
/// marks `needs_review`, `new` or `stale`. A table's reference is its String Catalog's
/// `sourceLanguage` when a catalog provides it — the fallback lookup uses, and what lint
/// compares with — else the development language, else `Base`.
///
/// The development language counts a table only `Base.lproj` has as wholly its own: Base
/// is its text (Xcode's Base internationalization), so it is at 100% where Xcode shows it so.
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
    /// One table's numbers in one language.
    public struct Table: Sendable, Hashable {
        /// The table name (`Localizable`).
        public var name: String
        /// Reference keys of this table the language has.
        public var translated: Int
        /// Reference keys of this table.
        public var total: Int

        /// `translated / total`, 1 when there is nothing to translate.
        public var fraction: Double { total == 0 ? 1 : Double(translated) / Double(total) }
    }

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
        /// Translated keys whose value is the reference's text unchanged (a copy, or a word
        /// the language writes alike): counted as translated, shown beside it.
        public var sameAsSource: Int = 0
        /// The same per reference table, sorted by name.
        public var tables: [Table] = []

        /// `translated / total`, 1 when there is nothing to translate.
        public var fraction: Double { total == 0 ? 1 : Double(translated) / Double(total) }
    }

    /// The language translations are measured against: each table's reference
    /// (``references``) when they all agree, else the references joined (`de, en`).
    public var reference: String
    /// Each table's reference language: a String Catalog's `sourceLanguage` for the table it
    /// provides (its keys' reference text, as for lookup and lint), else the development
    /// language, else `Base`.
    public var references: [String: String]
    /// Every other language, sorted by identifier (`Base` and pseudo-languages excluded).
    public var languages: [Language]
    /// The entries skipped for their names (``ResourceSet/skipped``): a language in a folder
    /// named for no language tag is in no row, so it is listed here, with why.
    public var skipped: [SkippedName] = []

    /// Measures `resources`' catalog, listing too every language one of its files is in even
    /// when none of them could be read (a file in ``ResourceSet/errors`` counts as having
    /// none of its keys), and the entries skipped for their names (``skipped``).
    public init(resources: ResourceSet) {
        self.init(catalog: resources.catalog, languages: resources.files.compactMap(\.language?.identifier))
        skipped = resources.skipped
    }

    /// Measures `catalog`: each table against its reference language's keys (``references``).
    /// A language is measured over the tables it is not the reference of, and left out when
    /// it is the reference of every table. `languages` are measured too though `catalog` has
    /// no table in them (their files could not be read): with nothing translated.
    public init(catalog: ResourceCatalog, languages extra: [String] = []) {
        let development = catalog.developmentLanguage.identifier
        var referenceTables: [String: (language: String, table: LocalizationTable)] = [:]
        let names = Set(catalog.tables.values.flatMap(\.keys))
        for name in names {
            let candidates = [catalog.sourceLanguages[name]?.identifier, development, LanguageTag.base.identifier]
            guard let language = candidates.compactMap({ $0 }).first(where: { catalog.tables[$0]?[name] != nil })
            else { continue }
            referenceTables[name] = (language, catalog.tables[language]![name]!)
        }
        references = referenceTables.mapValues(\.language)
        let referenceLanguages = Set(references.values)
        reference =
            referenceLanguages.count == 1
            ? referenceLanguages.first!
            : referenceLanguages.isEmpty ? development : referenceLanguages.sorted().joined(separator: ", ")
        languages = Set(catalog.tables.keys).union(extra).sorted().compactMap { identifier in
            guard identifier != LanguageTag.base.identifier, PseudoLocalization(rawValue: identifier) == nil else {
                return nil
            }
            let measured = referenceTables.filter { $0.value.language != identifier }
            guard !measured.isEmpty || !referenceLanguages.contains(identifier) else { return nil }
            var counts = Language(language: identifier, translated: 0, total: 0, needsReview: 0)
            for (name, reference) in measured.sorted(by: { $0.key < $1.key }) {
                let untranslatable = catalog.untranslatableKeys[name] ?? []
                var tableTotal = 0
                reference.table.forEachEntry { key, _ in if !untranslatable.contains(key) { tableTotal += 1 } }
                counts.total += tableTotal
                // Base is the development language's own text (Xcode's Base internationalization),
                // and what a lookup in it serves for a table it has no file of.
                if identifier == development, reference.language == LanguageTag.base.identifier {
                    counts.translated += tableTotal
                    counts.tables.append(Table(name: name, translated: tableTotal, total: tableTotal))
                    continue
                }
                counts.tables.append(Table(name: name, translated: 0, total: tableTotal))
                guard let own = catalog.tables[identifier]?[name] else { continue }
                // Subscripts and forEachEntry read the table in place; `entries` builds a dictionary.
                reference.table.forEachEntry { key, original in
                    guard let entry = own[key], !untranslatable.contains(key),
                        Self.isTranslation(entry, of: original)
                    else { return }
                    counts.translated += 1
                    counts.tables[counts.tables.count - 1].translated += 1
                    if entry.plural == nil, original.plural == nil, !entry.value.isEmpty, entry.value == original.value
                    {
                        counts.sameAsSource += 1
                    }
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
