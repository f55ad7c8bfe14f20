import LocalizationCore

/// Words to translate, per language and table: the reference text's words of every key
/// (``TranslationCoverage``'s keys), and of those the language translates — what a
/// translation vendor quotes by.
struct ReportWordCounts {
    /// Translated and total words.
    struct Count: Hashable {
        var translated = 0
        var total = 0
    }

    /// Per language, per table name.
    var counts: [String: [String: Count]] = [:]

    init(catalog: ResourceCatalog, coverage: TranslationCoverage) {
        for language in coverage.languages {
            for table in language.tables {
                guard let reference = coverage.references[table.name],
                    let source = catalog.tables[reference]?[table.name]
                else { continue }
                let untranslatable = catalog.untranslatableKeys[table.name] ?? []
                let own = catalog.tables[language.language]?[table.name]
                var count = Count()
                source.forEachEntry { key, original in
                    guard !untranslatable.contains(key) else { return }
                    let words = Self.words(in: original.value)
                    count.total += words
                    // Base is the development language's own text, as coverage counts it.
                    let translated =
                        reference == LanguageTag.base.identifier && language.language == coverage.reference
                        || own?[key].map { TranslationCoverage.isTranslation($0, of: original) } == true
                    if translated { count.translated += words }
                }
                counts[language.language, default: [:]][table.name] = count
            }
        }
    }

    /// The language's words over every table.
    func total(_ language: String) -> Count {
        (counts[language] ?? [:]).values.reduce(into: Count()) {
            $0.translated += $1.translated
            $0.total += $1.total
        }
    }

    /// Runs of text between spaces that hold a letter or digit (placeholders and
    /// punctuation alone are no words).
    static func words(in text: String) -> Int {
        text.split(whereSeparator: \.isWhitespace).count { token in
            token.unicodeScalars.contains { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }
    }
}
