/// What the writer gathers before it lays out the bytes: strings, records and plural
/// blocks, each stored once however many languages and keys share it, and each table's
/// keys with every language's answers by key number.
struct CompiledTablesPlan {
    /// One table: its keys in order, and per language its record numbers by key number.
    struct Table {
        var name: CompiledStringReference
        var keys: [String]
        var keyReferences: [CompiledStringReference]
        /// By key number: the key's canonical composition (NFC), which the index holds, as
        /// a string reference and hashed.
        var indexReferences: [CompiledStringReference]
        var indexHashes: [UInt64]
        /// By language index; `nil` when the language answers no key of the table.
        var answers: [[UInt32]?]
    }

    /// A record before layout: string references, and the plural block's number.
    struct Record: Hashable {
        var value: CompiledStringReference
        var language: CompiledStringReference
        var plural: Int?
    }

    /// A plural variable's string references, in the order the block stores them.
    struct PluralVariable: Hashable {
        var name: CompiledStringReference
        var valueType: CompiledStringReference
        var argumentNumber: Int32
        var forms: [CompiledStringReference]
    }

    /// A plural block's string references.
    struct PluralBlock: Hashable {
        var format: CompiledStringReference
        var rulesLanguage: CompiledStringReference
        var variables: [PluralVariable]
    }

    let catalog: ResourceCatalog
    /// The compiled languages, sorted by identifier, each once.
    let languages: [LanguageTag]
    var strings = CompiledStringPool()
    var languageNames: [CompiledStringReference] = []
    var tables: [Table] = []
    var records: [Record] = []
    private var recordNumbers: [Record: UInt32] = [:]
    var plurals: [PluralBlock] = []
    /// Keyed by string references, not strings: Swift's `==` would merge canonically
    /// equivalent forms the format keeps apart.
    private var pluralNumbers: [PluralBlock: Int] = [:]

    init(catalog: ResourceCatalog, languages: [LanguageTag]) {
        self.catalog = catalog
        var seen = Set<String>()
        self.languages = languages.filter { seen.insert($0.identifier).inserted }.sorted {
            $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8)
        }
    }

    /// Resolves every table in every language into strings, records and answers, asking
    /// `proceeding` before each table and each language's resolution of it.
    ///
    /// - Throws: ``CompiledTablesError/abandoned`` once `proceeding` says no.
    mutating func resolve(proceeding: () -> Bool = { true }) throws(CompiledTablesError) {
        for language in languages { languageNames.append(try strings.reference(language.identifier)) }
        let chains = languages.map { catalog.chain([$0]) }
        let names = Set(catalog.tables.values.flatMap(\.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in names {
            var resolved: [[String: ResourceCatalog.ResolvedEntry]] = []
            resolved.reserveCapacity(chains.count)
            for chain in chains {
                guard proceeding() else { throw .abandoned }
                resolved.append(catalog.resolvedEntries(name, chain: chain))
            }
            var keySet = Set<String>()
            for table in resolved { keySet.formUnion(table.keys) }
            guard !keySet.isEmpty else { continue }
            guard keySet.count < Int(Int32.max) else { throw .tooLarge("table \(name) has \(keySet.count) keys") }
            let keys = keySet.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var keyReferences: [CompiledStringReference] = []
            var indexReferences: [CompiledStringReference] = []
            var indexHashes: [UInt64] = []
            keyReferences.reserveCapacity(keys.count)
            indexReferences.reserveCapacity(keys.count)
            indexHashes.reserveCapacity(keys.count)
            for key in keys {
                let reference = try strings.reference(key)
                keyReferences.append(reference)
                let composed = Self.composed(key)
                indexReferences.append(
                    try composed.map { key throws(CompiledTablesError) in
                        try strings.reference(key)
                    } ?? reference)
                indexHashes.append(CompiledKeyHash.hash(composed ?? key))
            }
            var answers: [[UInt32]?] = []
            for table in resolved {
                guard !table.isEmpty else {
                    answers.append(nil)
                    continue
                }
                var numbers = [UInt32](repeating: CompiledTablesLayout.noRecord, count: keys.count)
                for (position, key) in keys.enumerated() {
                    if let answer = table[key] { numbers[position] = try recordNumber(answer) }
                }
                answers.append(numbers)
            }
            tables.append(
                Table(
                    name: try strings.reference(name), keys: keys, keyReferences: keyReferences,
                    indexReferences: indexReferences, indexHashes: indexHashes, answers: answers))
        }
    }

    /// `key`'s canonical composition (NFC) when its bytes differ from `key`'s; `nil` for a
    /// key in NFC already (every ASCII key).
    static func composed(_ key: String) -> String? {
        guard !key.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        // The stdlib's own composition: the one Swift's `==`, and so the catalog's
        // dictionaries, compare keys by.
        let composed = key._nfcCodeUnits
        return composed.elementsEqual(key.utf8) ? nil : String(decoding: composed, as: UTF8.self)
    }

    /// The number of the record for `answer`, adding it when new.
    private mutating func recordNumber(_ answer: ResourceCatalog.ResolvedEntry) throws(CompiledTablesError) -> UInt32 {
        var plural: Int?
        if let format = answer.entry.plural {
            // `Base` holds the development language's text, so its rules select the forms.
            let rules = answer.language.isBase ? catalog.developmentLanguage : answer.language
            plural = try pluralNumber(format, rulesLanguage: rules.identifier)
        }
        let record = Record(
            value: try strings.reference(answer.entry.value),
            language: try strings.reference(answer.language.identifier), plural: plural)
        if let known = recordNumbers[record] { return known }
        guard records.count < Int(CompiledTablesLayout.noRecord) else { throw .tooLarge("more than 2³² − 1 records") }
        let number = UInt32(records.count)
        records.append(record)
        recordNumbers[record] = number
        return number
    }

    /// The number of the plural block for `format` under `rulesLanguage`'s rules, adding it when new.
    private mutating func pluralNumber(_ format: PluralFormat, rulesLanguage: String) throws(CompiledTablesError)
        -> Int
    {
        var variables: [PluralVariable] = []
        for name in format.variables.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let variable = format.variables[name] else { continue }
            var forms: [CompiledStringReference] = []
            for category in CompiledTablesLayout.pluralCategories {
                forms.append(
                    try variable.forms[category].map { form throws(CompiledTablesError) in
                        try strings.reference(form)
                    } ?? .absent)
            }
            var argument = CompiledTablesLayout.noArgumentNumber
            if let number = variable.argumentNumber {
                guard let exact = Int32(exactly: number), exact != CompiledTablesLayout.noArgumentNumber else {
                    throw .tooLarge("argument number \(number)")
                }
                argument = exact
            }
            variables.append(
                PluralVariable(
                    name: try strings.reference(name),
                    valueType: try variable.valueType.map { type throws(CompiledTablesError) in
                        try strings.reference(type)
                    } ?? .absent,
                    argumentNumber: argument, forms: forms))
        }
        let block = PluralBlock(
            format: try strings.reference(format.format),
            rulesLanguage: try strings.reference(rulesLanguage), variables: variables)
        if let known = pluralNumbers[block] { return known }
        let number = plurals.count
        plurals.append(block)
        pluralNumbers[block] = number
        return number
    }
}
