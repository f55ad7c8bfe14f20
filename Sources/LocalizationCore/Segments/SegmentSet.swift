/// The current segments of every (language, table), and what a lookup over them needs
/// besides: the development language and each table's String Catalog source language.
///
/// A set is a small value over shared segments: ``replacing(_:language:table:)`` gives a
/// new set in which one (language, table) has a new segment and every other segment is
/// the same object. A generation is one such set; whoever holds an old one keeps reading
/// the segments it names, which never change.
///
/// ```swift
/// let set = try SegmentSet(developmentLanguage: en, sources: loaded)
/// let next = set.replacing(try Segment(plan), language: "fr", table: "Localizable")
/// next.lookup("Open", in: nil, chain: next.chain([fr])).value   // "Ouvrir"
/// ```
package struct SegmentSet: Sendable {
    /// The language every chain ends with (`en` unless configured).
    package let developmentLanguage: LanguageTag
    /// The segments by table name, then by language identifier: a lookup names one table
    /// and probes the languages of its chain.
    package private(set) var segments: [String: [String: Segment]] = [:]
    /// The `sourceLanguage` of the String Catalog that wins for each table that has one
    /// (``ResourceCatalog/sourceLanguages``).
    package private(set) var sourceLanguages: [String: LanguageTag] = [:]
    /// Each source language's own fallback, computed once.
    private var sourceCandidates: [String: [LanguageTag]] = [:]
    /// The languages that have at least one segment, sorted by identifier: what a chain is
    /// matched against (``FallbackChain/init(preferred:developmentLanguage:available:)``),
    /// kept up to date by ``replacing(_:language:table:)``.
    package private(set) var languages: [LanguageTag] = []

    /// A set of no segments.
    package init(developmentLanguage: LanguageTag) {
        self.developmentLanguage = developmentLanguage
    }

    /// A set of `segments`, each the segment of the language and table it holds, with
    /// `sourceLanguages` as the tables' String Catalog source languages: a set received
    /// whole (a client's, from a `map` reply).
    package init(developmentLanguage: LanguageTag, segments: [Segment], sourceLanguages: [String: LanguageTag]) {
        self.developmentLanguage = developmentLanguage
        for segment in segments { self.segments[segment.table, default: [:]][segment.language] = segment }
        languages = Set(segments.map(\.language)).compactMap { try? LanguageTag($0) }.sorted()
        self.sourceLanguages = sourceLanguages
        sourceCandidates = sourceLanguages.mapValues { FallbackChain.expansion(of: $0) }
    }

    /// The segment of `language`'s `table`, if the set has one.
    package func segment(language: String, table: String) -> Segment? {
        segments[table]?[language]
    }

    /// This set with `segment` as `language`'s `table` (`nil` removes it); every other
    /// segment is kept as it is.
    package func replacing(_ segment: Segment?, language: String, table: String) -> SegmentSet {
        var copy = self
        copy.segments[table, default: [:]][language] = segment
        if copy.segments[table]?.isEmpty == true { copy.segments[table] = nil }
        let isListed = languages.contains { $0.identifier == language }
        let isServed = segment != nil || copy.segments.values.contains { $0[language] != nil }
        if isServed != isListed {
            // Only a language that comes or goes changes the list; a chain is matched against it.
            copy.languages = Set(copy.segments.values.flatMap(\.keys)).compactMap { try? LanguageTag($0) }.sorted()
        }
        return copy
    }

    /// This set with `languages` as the tables' String Catalog source languages.
    package func replacingSourceLanguages(_ languages: [String: LanguageTag]) -> SegmentSet {
        var copy = self
        copy.sourceLanguages = languages
        copy.sourceCandidates = languages.mapValues { FallbackChain.expansion(of: $0) }
        return copy
    }

    /// The chain for `preferred` tags, ending in this set's development language, built with
    /// the languages this set really has (so `nl` reaches the only `nl-BE`), as
    /// ``ResourceCatalog/chain(_:)`` builds it.
    package func chain(_ preferred: [LanguageTag]) -> FallbackChain {
        FallbackChain(preferred: preferred, developmentLanguage: developmentLanguage, available: languages)
    }

    /// The languages a lookup in `table` tries: `chain`'s, with the table's catalog source
    /// language before the development language.
    package func candidates(_ table: String, chain: FallbackChain) -> (languages: [LanguageTag], identifiers: [String])
    {
        chain.languages(withSource: sourceCandidates[table])
    }

    /// Every segment, in no particular order.
    package var allSegments: [Segment] {
        segments.values.flatMap(\.values)
    }
}
