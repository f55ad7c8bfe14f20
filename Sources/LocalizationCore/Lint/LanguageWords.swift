/// The words a language's own translations use: what tells a value the language writes as the
/// development language does (Dutch `Website`, Norwegian `Pause`, Brazilian `Plugins`) from
/// a copy nobody translated.
///
/// A word is the language's when it appears in a translation that differs from its source
/// and is written mostly in the language (more of its words than not are words the
/// development language's texts never use): `Audio versneld met %.2fs` gives Dutch `audio`,
/// where a stale English text (`Uncheck "receive beta updates" from Preferences - General`
/// for an older source) gives nothing. Words of one or two letters say nothing either way:
/// Latvian writes `to`, meaning something else than the English `to`.
struct LanguageWords {
    /// The words, lowercased.
    private(set) var words: Set<String> = []

    /// The words of `translations` (each with its source) that are the language's own, given
    /// `developmentWords`, the lowercased words of the development language's texts.
    init(translations: [(source: String, translation: String)], developmentWords: Set<String>) {
        for (source, translation) in translations where translation != source {
            let found = TranslationTextChecks.translatableWords(in: translation).map { $0.lowercased() }
            let foreign = found.count { !developmentWords.contains($0) }
            guard foreign * 2 > found.count else { continue }
            words.formUnion(found.filter { $0.count >= 3 })
        }
    }

    /// These words and those of `texts` (the single words a language keeps in a table it
    /// translates, ``ResourceLinter/keptWords(_:)``), of three or more letters.
    func including(_ texts: [String]) -> LanguageWords {
        var result = self
        for text in texts {
            result.words.formUnion(
                TranslationTextChecks.translatableWords(in: text).map { $0.lowercased() }.filter { $0.count >= 3 })
        }
        return result
    }

    /// The lowercased words of `texts`, as ``init(translations:developmentWords:)`` takes them.
    static func developmentWords(of texts: some Sequence<String>) -> Set<String> {
        Set(texts.flatMap { TranslationTextChecks.translatableWords(in: $0).map { $0.lowercased() } })
    }

    /// Whether every word of three or more letters in `text` is the language's own (and it has
    /// one): the text may be the language's as much as the development language's.
    func owns(_ text: String) -> Bool {
        let long = TranslationTextChecks.translatableWords(in: text).map { $0.lowercased() }.filter { $0.count >= 3 }
        return !long.isEmpty && long.allSatisfy(words.contains)
    }
}
