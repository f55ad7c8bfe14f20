import Foundation

extension ResourceLinter {
    /// The text checks of one translated entry against its original
    /// (``TranslationTextChecks``): whitespace at the ends, line breaks, double spaces, URLs,
    /// HTML tags and integer lengths on the value and every other plural form (against the
    /// original's form of the same category, else its `other`), and `unchanged-from-source`
    /// on the value when `unchanged` allows it (not a term most languages keep, not a
    /// variant of the development language), the value has at least `unchangedWords` words,
    /// and they are not all words of `ownWords`, the language's own.
    static func textFindings(
        _ key: String, _ translated: TableEntry, of original: TableEntry, unchanged checkUnchanged: Bool,
        unchangedWords: Int = 1, ownWords: LanguageWords? = nil,
        at variableLocations: [String: SourceLocation], else location: SourceLocation, suffix: String,
        related: SourceLocation? = nil
    ) -> [LintFinding] {
        var pairs: [(label: String, original: String, translation: String, location: SourceLocation)] = [
            ("", original.value, translated.value, location)
        ]
        for (name, variable) in (translated.plural?.variables ?? [:]).sorted(by: { $0.key < $1.key }) {
            let reference = original.plural?.variables[name]
            for (category, form) in variable.forms.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where category != .other {
                let source = reference?.forms[category] ?? reference?.forms[.other] ?? original.value
                pairs.append(
                    (
                        ": plural variable \(LintQuoting.quoted(name)) form \(category.rawValue)", source, form,
                        variableLocations[name] ?? location
                    ))
            }
        }
        let checks: [(LintRule, (String, String) -> String?)] = [
            (.edgeWhitespace, TranslationTextChecks.edgeWhitespace),
            (.newlineCount, TranslationTextChecks.newlineCount),
            (.doubleSpace, TranslationTextChecks.doubleSpace),
            (.urlMismatch, TranslationTextChecks.urlMismatch),
            (.htmlTagMismatch, TranslationTextChecks.htmlTagMismatch),
            (.lengthModifier, TranslationTextChecks.lengthModifier),
        ]
        var findings: [LintFinding] = []
        if checkUnchanged, translated.plural == nil,
            TranslationTextChecks.isUnchanged(original.value, translated.value, minimumWords: unchangedWords),
            ownWords?.owns(translated.value) != true
        {
            findings.append(
                LintFinding(
                    .unchangedFromSource, at: location,
                    "\(LintQuoting.quoted(key))\(suffix) is the development language's text unchanged "
                        + "(\(LintQuoting.quoted(translated.value)))",
                    related: related, key: key))
        }
        for pair in pairs where !pair.translation.isEmpty {
            for (rule, check) in checks {
                guard let problem = check(pair.original, pair.translation) else { continue }
                findings.append(
                    LintFinding(
                        rule, at: pair.location, "\(LintQuoting.quoted(key))\(suffix)\(pair.label): \(problem)",
                        related: related, key: key))
            }
        }
        return findings
    }

    /// The fewest words an unchanged value needs to be reported, in a table where `translated`
    /// of `total` entries (``tableShare(_:of:)``) differ from the source: one in a table
    /// mostly left in the source language (its `Folder` is a copy), two in one mostly
    /// translated, whose single `Audio`, `Volume` or `Codec:` is the language's own word.
    static func unchangedWords(translated: Int, total: Int) -> Int {
        translated * 2 > total ? 2 : 1
    }

    /// How many of `reference`'s entries `translation` writes in other words, of those that
    /// tell how much of the table it translates: every entry with words to translate
    /// (``TranslationTextChecks/wordsToTranslate(in:)``), and one without (`CANCEL`, `%@`,
    /// `1x`) only when the language wrote it otherwise (Dutch `ANNULEER`): kept as it is, it
    /// says nothing. So IINA's Dutch subtitle table (`Downloads:` kept, `CANCEL` and the
    /// sentence translated, `DOWNLOAD` kept) is mostly translated, 2 of 3, not half of 4.
    static func tableShare(_ translation: [String: TableEntry], of reference: [String: TableEntry])
        -> (translated: Int, total: Int)
    {
        var share = (translated: 0, total: 0)
        for (key, original) in reference {
            let differs = translation[key].map { $0.value != original.value } ?? false
            guard differs || TranslationTextChecks.wordsToTranslate(in: original.value) > 0 else { continue }
            share.total += 1
            if differs { share.translated += 1 }
        }
        return share
    }

    /// Keys of one reference that at least half of the languages translating them (four or
    /// more) leave as the reference writes them: names and terms (`IINA`, `mpv`, `Dolby
    /// Vision`), not copies a translator forgot. Only a short text
    /// (``TranslationTextChecks/isTerm(_:)``) is one: a sentence most languages leave
    /// unchanged (IINA's `Failed to load the page.`, in English in 42 of 52 languages) is a
    /// sentence most languages never translated, not a term.
    ///
    /// `respelled` are the terms some language respells in the reference's own words
    /// (``TranslationTextChecks/isRespelling(_:of:)``: German `User-Agent:`, Hebrew
    /// `User agent:` behind a right-to-left mark, for `User agent:`): a translator looked at
    /// it and kept the words, a loanword, so a language that keeps it as written while it
    /// translates the rest of its table (Italian, Vietnamese) is not reported; one that left
    /// the whole table in the reference's language still is. A copy nobody touched is no
    /// such evidence: a text many languages leave unchanged is as often one added after they
    /// were translated.
    static func commonlyUnchanged(
        _ reference: [String: TableEntry], translations: [[String: TableEntry]]
    ) -> (terms: Set<String>, respelled: Set<String>) {
        var counts: [String: (has: Int, same: Int)] = [:]
        var respelled: Set<String> = []
        for translation in translations {
            for (key, entry) in translation {
                guard let original = reference[key], !entry.value.isEmpty, TranslationTextChecks.isTerm(original.value)
                else { continue }
                counts[key, default: (0, 0)].has += 1
                if entry.value == original.value { counts[key, default: (0, 0)].same += 1 }
                if TranslationTextChecks.isRespelling(entry.value, of: original.value) { respelled.insert(key) }
            }
        }
        return (Set(counts.filter { $0.value.has >= 4 && $0.value.same * 2 >= $0.value.has }.keys), respelled)
    }

    /// The single words (``TranslationTextChecks/isTerm(_:)``, one word to translate: `Help`,
    /// `Edit`, `Plugins`) one language keeps as its reference writes them in a table of which
    /// it translates more than half, where lint takes them for the language's own words
    /// (``unchangedWords(translated:total:)``): they are its own words in its other tables
    /// too. Each pair is one of the language's tables and its reference. Longer texts are no
    /// evidence: a translated table keeps new sentences and labels nobody translated yet.
    static func keptWords(_ tables: [(translation: [String: TableEntry], reference: [String: TableEntry])])
        -> [String]
    {
        var kept: [String] = []
        for (translation, reference) in tables {
            let share = tableShare(translation, of: reference)
            guard unchangedWords(translated: share.translated, total: share.total) > 1 else { continue }
            for (key, entry) in translation where entry.plural == nil {
                guard let original = reference[key], original.value == entry.value,
                    TranslationTextChecks.isTerm(entry.value),
                    TranslationTextChecks.wordsToTranslate(in: entry.value) == 1
                else { continue }
                kept.append(entry.value)
            }
        }
        return kept
    }
}

extension ResourceLinter {
    /// The files of `reference`'s name in every other language's `.lproj` of its resource
    /// directory (Base and the development language's own left out).
    static func siblingTranslations(of reference: ResourceFile, development: LanguageTag) -> [ResourceFile] {
        let name = (reference.path as NSString).lastPathComponent
        let resources = ((reference.path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let directories = (try? FileManager.default.contentsOfDirectory(atPath: resources))?.sorted() ?? []
        return directories.compactMap { directory in
            guard let language = ResourceFile.language(ofDirectory: directory), !language.isBase,
                language != development
            else { return nil }
            let path = resources + "/" + directory + "/" + name
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return ResourceFile(path: path)
        }
    }
}

extension ResourceLinter {
    /// Each language's own words (by its identifier) in the files lint compares: its
    /// translations against their references, the development language's words taken from
    /// every reference.
    static func languageWords(_ comparisons: [(language: LanguageTag, entries: Entries, reference: Entries)])
        -> [String: LanguageWords]
    {
        let developmentWords = LanguageWords.developmentWords(
            of: comparisons.flatMap { $0.reference.values.values.map(\.entry.value) })
        var pairs: [String: [(source: String, translation: String)]] = [:]
        var tables: [String: [(translation: [String: TableEntry], reference: [String: TableEntry])]] = [:]
        for (language, entries, reference) in comparisons {
            for (key, translated) in entries.values {
                guard let original = reference.values[key] else { continue }
                pairs[language.identifier, default: []].append((original.entry.value, translated.entry.value))
            }
            tables[language.identifier, default: []].append(
                (entries.values.mapValues(\.entry), reference.values.mapValues(\.entry)))
        }
        return pairs.reduce(into: [:]) { result, pair in
            result[pair.key] = LanguageWords(translations: pair.value, developmentWords: developmentWords)
                .including(keptWords(tables[pair.key] ?? []))
        }
    }
}
