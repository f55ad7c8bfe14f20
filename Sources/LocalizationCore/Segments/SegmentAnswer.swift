/// What a lookup over a ``SegmentSet`` found: the language that answered and its entry,
/// read from the segment only when asked for.
package struct SegmentAnswer: Sendable {
    /// Where the entry is.
    package enum Source: Sendable {
        /// Entry `number` of a segment.
        case segment(Segment, number: Int)
        /// A pseudo-language's entry, derived from the development language's.
        case derived(TableEntry)
    }

    /// The language whose segment (or pseudo-localization) answered.
    package let language: LanguageTag
    /// Where the entry is.
    package let source: Source

    /// The entry's value: a plural entry's `other` forms.
    ///
    /// - Throws: ``SegmentError`` when the segment is damaged.
    package func value() throws(SegmentError) -> String {
        switch source {
        case .segment(let segment, let number): String(decoding: try segment.reader.value(of: number), as: UTF8.self)
        case .derived(let entry): entry.value
        }
    }

    /// The entry: its value and plural forms.
    ///
    /// - Throws: ``SegmentError`` when the segment is damaged.
    package func entry() throws(SegmentError) -> TableEntry {
        switch source {
        case .segment(let segment, let number): try segment.reader.entry(number)
        case .derived(let entry): entry
        }
    }

    /// The value with a plural entry's forms selected by `plural` under the CLDR rules of
    /// the answering language (of `developmentLanguage` when `Base` answered, whose text it
    /// holds), as ``ResourceCatalog/value(of:language:plural:)`` selects them.
    ///
    /// - Throws: ``SegmentError`` when the segment is damaged.
    package func value(for plural: PluralCounts, developmentLanguage: LanguageTag) throws(SegmentError) -> String {
        guard plural != .none else { return try value() }
        let entry = try entry()
        return entry.value(for: plural, rules: .cldr(for: language.isBase ? developmentLanguage : language))
    }
}
