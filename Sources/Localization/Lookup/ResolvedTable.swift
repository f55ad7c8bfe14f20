import LocalizationCore

/// One (languages, table) as the daemon resolved it: every key's value along the fallback
/// chain, from one generation — a cached-mode lookup reads it, never a mix of two.
final class ResolvedTable: Sendable {
    /// Which table for which preference list.
    struct Key: Hashable, Sendable {
        /// Normalised preferred tags, most preferred first (unparsable ones dropped).
        var languages: [String]
        /// The table name, `Localizable` for the default.
        var table: String
    }

    let key: Key
    let entries: [String: String]
    /// The language that served each key, as the daemon said.
    let servedBy: [String: String]
    let generation: UInt64
    /// Every language whose edit can change this table: the chain of the preferred tags
    /// and of the development language, and whatever language served a key.
    let dependsOn: Set<String>
    /// The language codes of those, current codes for old ones (`he` for `iw`): the daemon
    /// builds its chain with the folders it has, so a new folder of one of these languages
    /// (`nl-BE` beside a chain through `nl`) can change the table too.
    let dependsOnCodes: Set<String>

    /// The keys a fallback answered (a language other than the first preference's own, as
    /// ``FallbackChain/untranslatedLanguage(servedBy:)`` says): what the reader saw
    /// untranslated, reported to the daemon like a miss (``MissReporter``).
    let untranslated: Set<String>
    /// ``entries`` without ``untranslated``: what the hot path answers from without a word;
    /// a fallback answer takes the slow path, which reports it. The same dictionary, not a
    /// copy, when every answer is in the language asked for.
    let translatedEntries: [String: String]

    /// A table as the daemon resolved it; `fallbackLanguages` are the serving languages that
    /// count as fallbacks for its first preference.
    init(
        key: Key, entries: [String: String], servedBy: [String: String], generation: UInt64, chain: [String],
        fallbackLanguages: Set<String> = []
    ) {
        self.key = key
        self.entries = entries
        let untranslated =
            fallbackLanguages.isEmpty
            ? [] : Set(servedBy.lazy.filter { fallbackLanguages.contains($0.value) }.map(\.key))
        self.untranslated = untranslated
        translatedEntries = untranslated.isEmpty ? entries : entries.filter { !untranslated.contains($0.key) }
        self.servedBy = servedBy
        self.generation = generation
        self.dependsOn = Set(chain).union(servedBy.values)
        self.dependsOnCodes = Set(dependsOn.compactMap(Self.code))
    }

    /// Whether a change of `language` (an identifier, as events name it) can change this table.
    func depends(on language: String) -> Bool {
        dependsOn.contains(language) || Self.code(language).map(dependsOnCodes.contains) == true
    }

    /// The current language code of `identifier` (`he` for `iw-IL`); `nil` for `Base` and
    /// what does not parse.
    private static func code(_ identifier: String) -> String? {
        guard let tag = try? LanguageTag(identifier), !tag.isBase else { return nil }
        return (LanguageAliases.canonical(tag) ?? tag).language
    }
}
