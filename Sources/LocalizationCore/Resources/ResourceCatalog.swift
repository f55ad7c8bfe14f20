/// Every table of every language, assembled from resource files, and the lookup contract.
///
/// A catalog is an immutable value. Whoever reloads builds a new one and swaps it in whole,
/// so a reader always sees one complete version.
///
/// ```swift
/// let chain = FallbackChain(preferred: [try LanguageTag("ja")], developmentLanguage: catalog.developmentLanguage)
/// catalog.lookup("多言語化", chain: chain).value
/// ```
public struct ResourceCatalog: Sendable {
    /// The table used when a lookup names none.
    public static let defaultTableName = "Localizable"

    /// The language every chain ends with (`en` unless configured).
    public let developmentLanguage: LanguageTag
    /// Tables by language identifier, then by table name.
    public private(set) var tables: [String: [String: LocalizationTable]]
    /// The `sourceLanguage` of the String Catalog behind each table name that has one: the
    /// fallback of that table's keys after the requested languages and `Base`, before the
    /// development language (so a key only a `de`-sourced catalog's `de` has is found from `fr`).
    public private(set) var sourceLanguages: [String: LanguageTag] = [:]
    /// Keys a String Catalog marks `shouldTranslate: false`, by table name: served, but
    /// nothing a translator owes (coverage leaves them out).
    package private(set) var untranslatableKeys: [String: Set<String>] = [:]
    /// Each source language's own fallback, computed once.
    private var sourceCandidates: [String: [LanguageTag]] = [:]

    /// Creates a catalog from assembled tables.
    public init(developmentLanguage: LanguageTag, tables: [String: [String: LocalizationTable]] = [:]) {
        self.developmentLanguage = developmentLanguage
        self.tables = tables
    }

    /// Assembles a catalog from parsed files, applying the precedence rules: earlier roots
    /// win over later ones; within a root, `.stringsdict` over `.strings` over String Catalog.
    public init(developmentLanguage: LanguageTag, resources: [(file: ResourceFile, content: ParsedResource)]) {
        self.init(developmentLanguage: developmentLanguage)
        let ordered = Self.droppingOutrankedFolders(resources, file: \.file).sorted { Self.precedes($0.file, $1.file) }
        for (file, content) in ordered {
            overlay(content, from: file)
        }
        setSourceLanguages(Self.sourceLanguages(of: resources))
    }

    /// The source language of the String Catalog that wins for each table among
    /// `resources` (by the same precedence as the tables).
    package static func sourceLanguages(of resources: [(file: ResourceFile, content: ParsedResource)])
        -> [String: LanguageTag]
    {
        sourceLanguages(
            ofWritten: resources.map { file, content -> (file: ResourceFile, sourceLanguage: String?) in
                guard case .catalog(let catalog) = content else { return (file, nil) }
                return (file, catalog.sourceLanguage)
            })
    }

    /// The source language of the String Catalog that wins for each table, given each
    /// file's catalog source language as written (`nil` for an `.lproj` file).
    package static func sourceLanguages(ofWritten files: [(file: ResourceFile, sourceLanguage: String?)])
        -> [String: LanguageTag]
    {
        var result: [String: LanguageTag] = [:]
        for (file, written) in files.sorted(by: { precedes($0.file, $1.file) }) {
            guard let written, let language = try? LanguageTag(written) else { continue }
            result[file.table] = language
        }
        return result
    }

    /// Replaces the catalogs' source languages by table (the daemon, after files change).
    package mutating func setSourceLanguages(_ languages: [String: LanguageTag]) {
        sourceLanguages = languages
        sourceCandidates = languages.mapValues { FallbackChain.expansion(of: $0) }
    }

    /// The languages a lookup in `tableName` tries: `chain`'s, with the table's catalog
    /// source language placed before the development language when the chain lacks it.
    package func candidates(_ tableName: String, chain: FallbackChain) -> (
        languages: [LanguageTag], identifiers: [String]
    ) {
        chain.languages(withSource: sourceCandidates[tableName])
    }

    /// Replaces one language's table, or removes it when `table` is `nil` or empty; a
    /// language left with no tables is removed too.
    package mutating func setTable(_ table: LocalizationTable?, language: String, name: String) {
        if let table, table.count > 0 {
            tables[language, default: [:]][name] = table
        } else {
            tables[language]?[name] = nil
            if tables[language]?.isEmpty == true { tables[language] = nil }
        }
    }

    /// The chain for `preferred` tags, ending in this catalog's development language, built
    /// with the languages this catalog really has (so `nl` reaches the only `nl-BE`, and
    /// `he` an old `iw`: ``FallbackChain/init(preferred:developmentLanguage:available:)``).
    public func chain(_ preferred: [LanguageTag]) -> FallbackChain {
        FallbackChain(preferred: preferred, developmentLanguage: developmentLanguage, available: languages)
    }

    /// Looks `key` up along `chain` in `table` (`Localizable` when `nil` or empty).
    ///
    /// The first language in the chain that has the key serves it; for a table a String
    /// Catalog provides, its `sourceLanguage` is tried before the development language. When none has it, the
    /// value is the key itself and `found` is false. A catalog's key-made source entry
    /// (``TableEntry/isSourceKeyStandIn``) answers like any other, as Xcode compiles it. With a count, a plural entry's value
    /// is the format its forms select for that count, by the serving language's CLDR
    /// rules; with one count per format argument, each variable's form is selected by its
    /// own argument's count (``value(of:language:plural:)``). A pseudo-language in the chain (`en-XA`, `ar-XB`)
    /// serves what its own table lacks from the development language, transformed.
    public func lookup(
        _ key: String, in table: String? = nil, chain: FallbackChain, plural: PluralCounts = .none
    ) -> LookupResult {
        let tableName = Self.tableName(table)
        let (languages, identifiers) = candidates(tableName, chain: chain)
        for (index, identifier) in identifiers.enumerated() {
            let language = languages[index]
            var entry = tables[identifier]?[tableName]?[key]
            // By the precomputed identifier: this runs for every language a key is missing in.
            if entry == nil, let pseudo = PseudoLocalization(rawValue: identifier) {
                entry = developmentEntries(tableName)?[key].map(pseudo.transform)
            }
            // A catalog's key-made source entry answers too: Xcode compiles it as `key = key`.
            if let entry {
                let value = value(of: entry, language: language, plural: plural)
                return LookupResult(value: value, found: true, language: language, entry: entry)
            }
        }
        return .missing(key)
    }

    /// `entry`'s value with its plural forms selected by `plural` (one count for every
    /// variable, or each variable's by its own argument's; `nil` or absent takes `other`),
    /// for `language` (`Base` counts as the development language, whose text it holds).
    public func value(of entry: TableEntry, language: LanguageTag, plural: PluralCounts) -> String {
        guard entry.plural != nil, plural != .none else { return entry.value }
        return entry.value(for: plural, rules: pluralRules(for: language))
    }

    /// The plural rules of `language`, or of the development language for `Base`, whose
    /// text it holds.
    public func pluralRules(for language: LanguageTag) -> PluralRules {
        .cldr(for: language.isBase ? developmentLanguage : language)
    }

    /// The whole table as `chain` resolves it: every key any language of the chain has,
    /// each with the value and language the chain picks.
    public func resolvedTable(_ table: String? = nil, chain: FallbackChain) -> [String: LookupResult] {
        let tableName = Self.tableName(table)
        var result: [String: LookupResult] = [:]
        let (languages, identifiers) = candidates(tableName, chain: chain)
        for (index, identifier) in identifiers.enumerated().reversed() {
            let language = languages[index]
            if let pseudo = PseudoLocalization(language), let derived = developmentEntries(tableName) {
                derived.forEachEntry { key, entry in
                    let transformed = pseudo.transform(entry)
                    result[key] = LookupResult(
                        value: transformed.value, found: true, language: language, entry: transformed)
                }
            }
            tables[identifier]?[tableName]?.forEachEntry { key, entry in
                result[key] = LookupResult(value: entry.value, found: true, language: language, entry: entry)
            }
        }
        return result
    }

    /// The table pseudo-languages derive from: the development language's, else `Base`'s.
    func developmentEntries(_ tableName: String) -> LocalizationTable? {
        tables[developmentLanguage.identifier]?[tableName] ?? tables[LanguageTag.base.identifier]?[tableName]
    }

    /// The languages that have at least one table, sorted by identifier.
    public var languages: [LanguageTag] {
        tables.keys.compactMap { try? LanguageTag($0) }.sorted()
    }

    /// The table names of `language`, sorted.
    public func tableNames(of language: LanguageTag) -> [String] {
        (tables[language.identifier] ?? [:]).keys.sorted()
    }

    /// The number of keys over all languages and tables.
    public var keyCount: Int {
        tables.values.reduce(0) { sum, byTable in sum + byTable.values.reduce(0) { $0 + $1.count } }
    }

    /// `table`, or `Localizable` for `nil` or empty.
    public static func tableName(_ table: String?) -> String {
        guard let table, !table.isEmpty else { return defaultTableName }
        return table
    }

    /// Whether `lhs` is overlaid before (so loses to) `rhs`.
    static func precedes(_ lhs: ResourceFile, _ rhs: ResourceFile) -> Bool {
        if lhs.rootIndex != rhs.rootIndex { return lhs.rootIndex > rhs.rootIndex }
        if lhs.kind != rhs.kind { return lhs.kind < rhs.kind }
        return lhs.path < rhs.path
    }

    mutating func overlay(_ content: ParsedResource, from file: ResourceFile) {
        switch content {
        case .table(let table):
            guard let language = file.language else { return }
            overlay(table, language: language.identifier, table: file.table)
        case .catalog(let catalog):
            if !catalog.untranslatableKeys.isEmpty {
                untranslatableKeys[file.table, default: []].formUnion(catalog.untranslatableKeys)
            }
            for (code, entries) in catalog.tables {
                guard let language = try? LanguageTag(code) else { continue }
                overlay(LocalizationTable(entries: entries), language: language.identifier, table: file.table)
            }
        }
    }

    mutating func overlay(_ table: LocalizationTable, language: String, table name: String) {
        if let existing = tables[language]?[name] {
            tables[language, default: [:]][name] = existing.overlaid(with: table)
        } else {
            tables[language, default: [:]][name] = table
        }
    }
}
