import LocalizationCore
import LocalizationSockets

/// One generation of the daemon's compiled tables (docs/FORMAT.md), mapped read-only from
/// the sealed memory file a `map` reply carried: mapped mode's lookups read them in place.
///
/// A class, so each lookup holds the generation it reads: when a `changed` event replaces it,
/// the old mapping is unmapped once the last lookup (or thread cache) using it lets go.
final class MappedTables: Sendable {
    /// The generation the daemon compiled.
    let generation: UInt64
    let compiled: CompiledTables
    /// Owns the pages `compiled` reads: they stay mapped as long as this object lives.
    private let mapping: SealedMemoryMapping

    /// Opens the compiled tables in `mapping`.
    ///
    /// The body's checksum is not computed (a pass over every byte, paid by the first lookup):
    /// the daemon wrote the file a moment ago and the seals keep anyone from changing it, and
    /// every offset a lookup follows is bounds-checked all the same.
    init(_ mapping: SealedMemoryMapping) throws(CompiledTablesError) {
        // The buffer outlives this call: `self.mapping` keeps it mapped for as long as
        // `compiled` can be read.
        let buffer = mapping.withUnsafeBytes { $0 }
        compiled = try CompiledTables(buffer, verifyingChecksums: false)
        generation = compiled.generation
        self.mapping = mapping
    }

    /// The compiled language and table a lookup for `language` (a normalised identifier) in
    /// `table` reads; `nil` when the daemon compiled no such language or table.
    func place(language: String, table: String) -> Place? {
        guard let compiledLanguage = compiled.language(language), let compiledTable = compiled.table(table),
            let place = try? compiled.place(language: compiledLanguage, table: compiledTable)
        else {
            return nil
        }
        return Place(tables: self, compiled: place)
    }

    /// Where lookups of one (language, table) read, with the generation that holds it.
    struct Place {
        /// Keeps the mapping alive while the place is used.
        let tables: MappedTables
        /// The language's answers for the table in `tables`: no reference, so a lookup
        /// through a copy of it (the thread cache's) touches no reference count.
        let compiled: CompiledTables.Place

        /// `key`'s value as a lookup without counts returns it; `nil` for a miss (or damage).
        @inline(__always)
        func value(_ key: String) -> String? {
            compiled.value(key)
        }

        /// `key` looked up with plural forms selected as `plural` says.
        func result(_ key: String, plural: PluralCounts) -> LookupResult {
            guard let answer = try? compiled.answer(key) else {
                return .missing(key)
            }
            let value: String?
            switch plural {
            case .none: value = answer.valueString
            case .count, .counts: value = try? answer.value(for: plural)
            }
            guard let value else { return .missing(key) }
            return LookupResult(
                value: value, found: true, language: try? LanguageTag(answer.languageIdentifier), entry: nil)
        }
    }
}
