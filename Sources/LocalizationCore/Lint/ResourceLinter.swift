import Foundation

/// Checks resource files the way a translator's reviewer would; each finding names its
/// ``LintRule`` and is located at its line and column.
///
/// Translations are compared with the development language's table of the same name in
/// the same resource directory (`en.lproj` next to `ja.lproj`), else with `Base.lproj`. A
/// reference file that was not itself named for linting is read for comparison only. A
/// language whose `.lproj` (in a directory lint scanned) lacks a reference file altogether
/// has each of that file's keys `untranslated`, as ``TranslationCoverage`` counts them. A
/// String Catalog is checked on its own: each language against its `sourceLanguage`, and
/// each language of an `.lproj` beside it that it has no localization in at all.
///
/// The rules agree with lookup and ``TranslationCoverage``: every catalog state is served
/// (and counted), so a marked state is a warning, not "untranslated"; an empty value is
/// not a translation; `shouldTranslate: false` keys are never untranslated.
public enum ResourceLinter {
    /// One file's entries with their locations, as lint needs them.
    struct Entries {
        var values: [String: (entry: TableEntry, location: SourceLocation)] = [:]
        var order: [String] = []
        /// Where each plural variable of an entry is written, by key then variable.
        var variableLocations: [String: [String: SourceLocation]] = [:]
        /// A String Catalog's contents and where its keys are, for the languages it lacks.
        var catalog: (catalog: StringCatalog, locator: KeyPathLocator)?
    }

    /// Every finding for the files and directories in `paths`, sorted by file and line.
    public static func lint(paths: [String], developmentLanguage: LanguageTag = LanguageTag(language: "en"))
        -> [LintFinding]
    {
        lint(paths: paths, options: LintOptions(developmentLanguage: developmentLanguage))
    }

    /// Every finding for the files and directories in `paths` under `options` (rules turned
    /// off are left out, the others carry their configured severity), sorted by file and line.
    public static func lint(paths: [String], options: LintOptions) -> [LintFinding] {
        var findings: [LintFinding] = []
        var files: [ResourceFile] = []
        // Files found in a directory: only there does a file's absence say something.
        var scanned: [ResourceFile] = []
        // A file reached twice (`lint t1 t1`, `lint t1/./de.lproj t1`, a symbolic link) is
        // linted once, under the path it was first reached by.
        var (reached, reachedByScan): (Set<String>, Set<String>) = ([], [])
        var scannedDirectories: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                findings.append(
                    LintFinding(.file, at: SourceLocation(file: path, line: 1, column: 1), "no such file or directory"))
                continue
            }
            if isDirectory.boolValue {
                scannedDirectories.append(path)
                let survey = ResourceScanner.survey(directory: path, rootIndex: 0)
                findings += survey.skipped.map(skippedNameFinding)
                let found = survey.files.map { ($0, canonicalPath($0.path)) }
                files += found.filter { reached.insert($0.1).inserted }.map(\.0)
                // Named first and scanned later, a file is linted once but still present in its `.lproj`.
                scanned += found.filter { reachedByScan.insert($0.1).inserted }.map(\.0)
            } else if let file = ResourceFile(anyPath: path) {
                if reached.insert(canonicalPath(path)).inserted { files.append(file) }
            } else {
                findings.append(
                    LintFinding(
                        .file, at: SourceLocation(file: path, line: 1, column: 1),
                        "not a .strings, .stringsdict or .xcstrings file"))
            }
        }
        var parsed: [String: Entries] = [:]
        for file in files {
            switch entries(of: file, options: options) {
            case .success(let result):
                parsed[file.path] = result.entries
                findings += result.findings
            case .failure(let error):
                findings.append(LintFinding(.file, at: error.location, error.message))
            }
        }
        let development = options.developmentLanguage
        var references = ReferenceFiles(developmentLanguage: development)
        // A file's entries as lint parsed them, else read now (a reference or a table's other
        // file that lint was not given).
        let read = { (file: ResourceFile) -> Entries? in
            parsed[file.path] ?? (try? Self.entries(of: file, options: options).get().entries)
        }
        // Per reference file, the keys most languages keep as it writes them (names, terms).
        var termsByReference: [String: (terms: Set<String>, respelled: Set<String>)] = [:]
        var comparisons:
            [(
                file: ResourceFile, entries: Entries, language: LanguageTag, reference: ResourceFile,
                referenceEntries: Entries
            )] = []
        for file in files where file.kind != .stringCatalog {
            guard let entries = parsed[file.path], let language = file.language,
                !language.isBase, language != development,
                let reference = references.file(for: file),
                let referenceEntries = read(reference)
            else { continue }
            comparisons.append((file, entries, language, reference, referenceEntries))
        }
        let ownWords = languageWords(comparisons.map { ($0.language, $0.entries, $0.referenceEntries) })
        for (file, entries, language, reference, referenceEntries) in comparisons {
            let styles =
                options.placeholderStyles
                ?? PlaceholderStyles.detected(in: referenceEntries.values.values.map(\.entry.value))
            let elsewhere = keysInOtherFiles(of: file.path, language: language.identifier, entries: read)
            if termsByReference[reference.path] == nil {
                termsByReference[reference.path] = commonlyUnchanged(
                    referenceEntries.values.mapValues(\.entry),
                    translations: siblingTranslations(of: reference, development: development).compactMap {
                        read($0)?.values.mapValues(\.entry)
                    })
            }
            findings += compare(
                entries, of: file.path, with: referenceEntries, of: reference.path, styles: styles,
                translatedElsewhere: elsewhere,
                keptUnchanged: language.language == development.language
                    ? nil : termsByReference[reference.path]?.terms,
                respelled: termsByReference[reference.path]?.respelled ?? [],
                ownWords: ownWords[language.identifier])
        }
        findings += missingFileFindings(scanned, references: &references, entries: read)
        findings += orphanTableFindings(files, parsed: parsed, references: &references)
        findings += emptyLanguageFolderFindings(in: scannedDirectories)
        findings += shadowedFolderFindings(scanned)
        return findings.compactMap { finding in
            guard let severity = options.severity(of: finding.rule) else { return nil }
            var configured = finding
            configured.severity = severity
            return configured
        }.sorted {
            ($0.location.file ?? "", $0.location.line, $0.location.column, $0.rule) < (
                $1.location.file ?? "", $1.location.line, $1.location.column, $1.rule
            )
        }
    }

    /// `path` with symbolic links, `.` and `..` resolved, to tell when two paths name one file.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The entries of one file, with their own findings (duplicates, bad entries, plural
    /// forms, and everything about a String Catalog).
    static func entries(of file: ResourceFile, options: LintOptions) -> Result<
        (entries: Entries, findings: [LintFinding]), ResourceParseError
    > {
        let bytes: [UInt8]
        switch ResourceFileReader.bytes(of: file.path) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(error)
        }
        let start = SourceLocation(file: file.path, line: 1, column: 1)
        var entries = Entries()
        var findings: [LintFinding] = []
        do {
            switch file.kind {
            case .strings:
                // The entries straight from the file's buffer, keys compared as Swift strings
                // (as a table's are): no entry list or dictionary of the whole file first.
                let parsed = try StringsParser.parseTable(bytes, file: file.path)
                // Cleared: 0 bytes, or only a newline, a byte order mark, comments.
                if let blank = parsed.blankContent(of: bytes) {
                    let what = bytes.isEmpty ? "is empty (0 bytes)" : "holds no entries (\(blank))"
                    findings.append(
                        LintFinding(
                            .emptyFile, at: start,
                            "the file \(what): Foundation reads it as a table with no keys, so every key of "
                                + "it falls back; if a save or a tool truncated it, restore it"))
                }
                var first: [String: SourceLocation] = [:]
                for (key, location, position) in keyOccurrences(in: parsed) {
                    if let earlier = first[key] {
                        findings.append(
                            LintFinding(
                                .duplicateKey, at: location,
                                "duplicate key \(LintQuoting.quoted(key)) (first at \(earlier.line):\(earlier.column)); the last one wins",
                                related: earlier))
                    } else {
                        first[key] = location
                    }
                    guard let position else { continue }
                    if entries.values[key] == nil { entries.order.append(key) }
                    entries.values[key] = (TableEntry(value: parsed.value(at: position)), location)
                }
                for value in parsed.nonStringValues {
                    findings.append(LintFinding(.nonStringValue, at: value.location, parsed.message(for: value)))
                }
                if let end = parsed.earlyEnd {
                    findings.append(LintFinding(.ignoredRest, at: end.location, parsed.message(for: end)))
                }
            case .stringsDict:
                let (read, problems) = try StringsDictReader.read(bytes, file: file.path)
                findings += problems.map(finding)
                // Binary plists carry no positions: their entries stay at 1:1.
                let isBinary = bytes.starts(with: BinaryPropertyListReader.magic)
                let locator = KeyPathLocator(bytes: bytes, syntax: .xmlPropertyList, file: file.path)
                if !isBinary {
                    findings += duplicateKeyFindings(PropertyListTopKeys.scan(bytes), in: bytes, file: file.path)
                }
                for (key, entry) in read.sorted(by: { $0.key < $1.key }) {
                    entries.values[key] = (entry, isBinary ? start : locator.location(of: [key]))
                    entries.order.append(key)
                    for name in (entry.plural?.variables.keys).map(Array.init) ?? [] {
                        entries.variableLocations[key, default: [:]][name] =
                            isBinary ? start : locator.location(of: [key, name])
                    }
                }
                if let language = file.language {
                    findings += pluralFindings(entries, language: language)
                }
            case .stringCatalog:
                let (catalog, problems) = try StringCatalogReader.read(bytes, file: file.path)
                findings += problems.map(finding)
                let locator = KeyPathLocator(bytes: bytes, syntax: .json, file: file.path)
                findings += catalogFindings(
                    catalog, locator: locator, styles: options.placeholderStyles,
                    translatedElsewhere: lprojKeys(besideCatalog: file.path, options: options))
                entries.catalog = (catalog, locator)
            }
        } catch {
            return .failure(error)
        }
        if file.kind != .stringCatalog {
            for key in entries.order {
                guard let (entry, location) = entries.values[key] else { continue }
                findings += widthFindings(entry, key: key, at: location)
            }
        }
        return .success((entries, findings))
    }

    /// Every key a `.strings` file writes, in file order: its entries (with their position in
    /// `table`) and the keys of entries left out because their value is no string (position
    /// nil). Those count for duplicates too: a string after an array of the same key is the
    /// key's second entry, though the first is not served.
    static func keyOccurrences(in table: StringsTable) -> [(key: String, location: SourceLocation, position: Int?)] {
        var occurrences: [(key: String, location: SourceLocation, position: Int?)] = table.spans.indices.map {
            (table.key(at: $0), table.location(at: $0), $0)
        }
        guard !table.nonStringValues.isEmpty else { return occurrences }
        occurrences += table.nonStringValues.map { (table.key(of: $0), $0.location, nil) }
        occurrences.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        return occurrences
    }

    /// A key the top-level dictionary has twice: the reader keeps the last one.
    static func duplicateKeyFindings(_ keys: [(key: String, offset: Int)], in bytes: [UInt8], file: String)
        -> [LintFinding]
    {
        var first: [String: SourceLocation] = [:]
        var findings: [LintFinding] = []
        for (key, offset) in keys {
            let location = SourceLocation(byteOffset: offset, in: bytes, file: file)
            guard let earlier = first[key] else {
                first[key] = location
                continue
            }
            findings.append(
                LintFinding(
                    .duplicateKey, at: location,
                    "duplicate key \(LintQuoting.quoted(key)) (first at \(earlier.line):\(earlier.column)); the last one wins",
                    related: earlier))
        }
        return findings
    }

    /// Conversions of `entry` (its value and every plural form) whose width or precision is
    /// over ``LocalizedFormatter/maximumWidth``: formatting refuses them (in the daemon and
    /// the library alike), so the string would never be filled with its arguments.
    static func widthFindings(_ entry: TableEntry, key: String, at location: SourceLocation) -> [LintFinding] {
        var texts = [entry.value]
        if let plural = entry.plural {
            texts.append(plural.format)
            for (_, variable) in plural.variables.sorted(by: { $0.key < $1.key }) {
                texts += variable.forms.sorted(by: { $0.key.rawValue < $1.key.rawValue }).map(\.value)
            }
        }
        var seen: Set<String> = []
        return texts.flatMap(FormatSpecifier.parse).compactMap { specifier in
            guard seen.insert(specifier.text).inserted else { return nil }
            if specifier.flagsWidthPrecision.contains("*") {
                return LintFinding(
                    .formatWidth, at: location,
                    "\(LintQuoting.quoted(key)): \(specifier) takes its width or precision from an argument ('*'), which formatting refuses"
                )
            }
            guard !LocalizedFormatter.widthAndPrecisionFit(specifier.flagsWidthPrecision) else { return nil }
            return LintFinding(
                .formatWidth, at: location,
                "\(LintQuoting.quoted(key)): \(specifier) asks for a width or precision over \(LocalizedFormatter.maximumWidth), which formatting refuses"
            )
        }
    }

    /// String Catalog states that are served (every state is) but want a translator's look.
    static let markedStates: Set<String> = ["new", "needs_review", "stale"]

    /// A reader's problem with one entry: an error when the entry is left out, a warning
    /// when it is served with a stand-in.
    static func finding(_ problem: ResourceParseError) -> LintFinding {
        LintFinding(problem.isEntryLost ? .badEntry : .incompleteEntry, at: problem.location, problem.message)
    }

    /// Plural variables of `entries` (a file in `language`) without a form for one of the
    /// language's CLDR categories. A missing `other` is the reader's warning already.
    static func pluralFindings(_ entries: Entries, language: LanguageTag) -> [LintFinding] {
        guard !language.isBase else { return [] }
        let categories = PluralRules.cldr(for: language).categories
        let required = categories.filter { $0 != .other }
        var findings: [LintFinding] = []
        for key in entries.order {
            guard let (entry, location) = entries.values[key], let plural = entry.plural else { continue }
            for (name, variable) in plural.variables.sorted(by: { $0.key < $1.key }) {
                let all = categories.map(\.rawValue).joined(separator: ", ")
                func report(_ categories: [PluralCategory], _ problem: String) {
                    guard !categories.isEmpty else { return }
                    findings.append(
                        LintFinding(
                            .pluralForms, at: entries.variableLocations[key]?[name] ?? location,
                            "\(LintQuoting.quoted(key)): plural variable \(LintQuoting.quoted(name)) "
                                + problem.replacing("FORMS", with: categories.map(\.rawValue).joined(separator: ", "))))
                }
                // `zero` is Apple's own: any language may have it, for the number 0.
                report(
                    variable.forms.keys.filter { $0 != .zero && !categories.contains($0) }.sorted {
                        $0.rawValue < $1.rawValue
                    },
                    "has a FORMS form \(language.identifier) never uses (\(language.identifier) has \(all))")
                report(
                    required.filter { variable.forms[$0] == nil },
                    "has no FORMS form (\(language.identifier) needs \(all))")
            }
        }
        return findings
    }

    /// Untranslated, empty, marked and mismatched localizations inside one String Catalog,
    /// each language against its source, at the key's or localization's place in the JSON.
    static func catalogFindings(
        _ catalog: StringCatalog, locator: KeyPathLocator, styles configured: PlaceholderStyles?,
        translatedElsewhere: [String: Set<String>] = [:]
    )
        -> [LintFinding]
    {
        var findings: [LintFinding] = []
        for (language, table) in catalog.tables.sorted(by: { $0.key < $1.key }) {
            for (key, entry) in table.sorted(by: { $0.key < $1.key }) {
                findings += widthFindings(
                    entry, key: key, at: locator.location(of: ["strings", key, "localizations", language]))
            }
        }
        guard let source = catalog.tables[catalog.sourceLanguage] else { return findings }
        let styles = configured ?? PlaceholderStyles.detected(in: source.values.map(\.value))
        let terms = commonlyUnchanged(
            source, translations: catalog.tables.filter { $0.key != catalog.sourceLanguage }.map(\.value))
        let sourceTag = try? LanguageTag(catalog.sourceLanguage)
        for (language, table) in catalog.tables.sorted(by: { $0.key < $1.key }) where language != catalog.sourceLanguage
        {
            let variant = (try? LanguageTag(language))?.language == sourceTag?.language
            let ownWords = LanguageWords(
                translations: table.compactMap { key, entry in source[key].map { ($0.value, entry.value) } },
                developmentWords: LanguageWords.developmentWords(of: source.values.map(\.value))
            ).including(keptWords([(table, source)]))
            let share = tableShare(table, of: source)
            let unchangedWords = Self.unchangedWords(translated: share.translated, total: share.total)
            findings += untranslatedCatalogKeys(
                catalog, in: language, locator: locator,
                except: canonical(language).flatMap { translatedElsewhere[$0] } ?? [])
            var translation = Entries()
            for (key, entry) in table.sorted(by: { $0.key < $1.key }) {
                let path = ["strings", key, "localizations", language]
                let location = locator.location(of: path)
                translation.values[key] = (entry, location)
                translation.order.append(key)
                for name in entry.plural?.variables.keys.sorted() ?? [] {
                    translation.variableLocations[key, default: [:]][name] = locator.location(
                        of: name == "_" ? path + ["variations", "plural"] : path + ["substitutions", name])
                }
                guard !catalog.untranslatableKeys.contains(key) else { continue }
                let related = locator.location(of: ["strings", key, "localizations", catalog.sourceLanguage])
                if entry.state == "needs_review" {
                    // Xcode marks a localization so when its source text changes.
                    findings.append(
                        LintFinding(
                            .outdatedTranslation, at: location,
                            "\(LintQuoting.quoted(key)) in \(language) is marked needs_review: it was made for an "
                                + "older source text, and is served as it is",
                            related: related, key: key))
                } else if let state = entry.state, Self.markedStates.contains(state) {
                    findings.append(
                        LintFinding(
                            .reviewState, at: location,
                            "\(LintQuoting.quoted(key)) in \(language) is marked \(state); it is served as it is",
                            related: related, key: key))
                }
                guard let original = source[key] else { continue }
                if !TranslationCoverage.isTranslation(entry, of: original) {
                    findings.append(
                        LintFinding(
                            .emptyValue, at: location,
                            "\(LintQuoting.quoted(key)) in \(language) is empty; it counts as untranslated",
                            related: related, key: key))
                } else if !original.isSourceKeyStandIn || !FormatSpecifier.parse(key).isEmpty,
                    // A key-made source entry is a reference only when the key is itself a
                    // format (`%lld items`); a name (`cart.count`) says nothing of the arguments.
                    let problem = styles.mismatch(original.value, entry.value)
                {
                    findings.append(
                        LintFinding(
                            .placeholderMismatch, at: location, "\(LintQuoting.quoted(key)) in \(language): \(problem)",
                            related: related, key: key))
                }
                if let originalPlural = original.plural, let plural = entry.plural,
                    let problem = PluralVariableOrder.problem(originalPlural, plural)
                {
                    findings.append(
                        LintFinding(
                            .placeholderMismatch, at: location, "\(LintQuoting.quoted(key)) in \(language): \(problem)",
                            related: related, key: key))
                }
                if let original = source[key], !original.isSourceKeyStandIn || !FormatSpecifier.parse(key).isEmpty {
                    findings += formFindings(
                        key, entry, of: original, styles: styles, at: translation.variableLocations[key] ?? [:],
                        else: location, suffix: " in \(language)")
                    findings += percentFindings(
                        key, entry, of: original, styles: styles, at: translation.variableLocations[key] ?? [:],
                        else: location, suffix: " in \(language)")
                }
                // A key-made source entry is the key, which is the source text in most catalogs.
                findings += textFindings(
                    key, entry, of: original,
                    unchanged: !variant && !terms.terms.contains(key)
                        && !(unchangedWords > 1 && terms.respelled.contains(key)),
                    unchangedWords: unchangedWords, ownWords: ownWords, at: translation.variableLocations[key] ?? [:],
                    else: location, suffix: " in \(language)",
                    related: related)
            }
            if let tag = try? LanguageTag(language) { findings += pluralFindings(translation, language: tag) }
        }
        return findings
    }

    /// `untranslated` for each key of `catalog`'s source that `language` has no localization
    /// of (every one when the catalog lacks the language), at the key in the JSON.
    /// Keys in `translated` (an `.lproj` file of the catalog's table has them) are left out.
    static func untranslatedCatalogKeys(
        _ catalog: StringCatalog, in language: String, locator: KeyPathLocator, except translated: Set<String> = []
    ) -> [LintFinding] {
        guard let source = catalog.tables[catalog.sourceLanguage] else { return [] }
        let table = catalog.tables[language] ?? [:]
        return source.keys.sorted().filter {
            table[$0] == nil && !catalog.untranslatableKeys.contains($0) && !translated.contains($0)
        }.map { key in
            LintFinding(
                .untranslated, at: locator.location(of: ["strings", key]),
                "\(LintQuoting.quoted(key)) has no \(language) localization",
                related: locator.location(of: ["strings", key, "localizations", catalog.sourceLanguage]), key: key)
        }
    }

    /// Missing, obsolete and empty keys and placeholder mismatches of a translation against
    /// its reference; a key the translation lacks but `translatedElsewhere` has (the
    /// language's other files of the table) is not missing.
    /// `keptUnchanged` are the keys `unchanged-from-source` leaves alone (terms most languages
    /// keep); `nil` checks none (a variant of the development language, `en-GB`); nor does it
    /// report a value whose words are all `ownWords`, the language's own, nor a `respelled`
    /// term (``commonlyUnchanged(_:translations:)``) in a table the language mostly translates.
    static func compare(
        _ translation: Entries, of path: String, with reference: Entries, of referencePath: String,
        styles: PlaceholderStyles, translatedElsewhere: Set<String> = [], keptUnchanged: Set<String>? = nil,
        respelled: Set<String> = [], ownWords: LanguageWords? = nil
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        let referenceName = shortName(referencePath)
        let share = tableShare(translation.values.mapValues(\.entry), of: reference.values.mapValues(\.entry))
        let unchangedWords = Self.unchangedWords(translated: share.translated, total: share.total)
        for key in reference.order {
            guard let original = reference.values[key] else { continue }
            guard let translated = translation.values[key] else {
                guard !translatedElsewhere.contains(key) else { continue }
                // A key that is not there has no line of its own: the file's start, and the
                // reference's entry as the related place.
                findings.append(
                    LintFinding(
                        .untranslated, at: SourceLocation(file: path, line: 1, column: 1),
                        "missing key \(LintQuoting.quoted(key)) (\(referenceName):\(original.location.line) has it)",
                        related: original.location, key: key))
                continue
            }
            if !TranslationCoverage.isTranslation(translated.entry, of: original.entry) {
                findings.append(
                    LintFinding(
                        .emptyValue, at: translated.location,
                        "\(LintQuoting.quoted(key)) is empty; it counts as untranslated",
                        related: original.location, key: key))
            } else if let problem = styles.mismatch(original.entry.value, translated.entry.value) {
                findings.append(
                    LintFinding(
                        .placeholderMismatch, at: translated.location,
                        "\(LintQuoting.quoted(key)): \(problem) (as in \(referenceName))",
                        related: original.location, key: key))
            }
            if let originalPlural = original.entry.plural, let plural = translated.entry.plural,
                let problem = PluralVariableOrder.problem(originalPlural, plural)
            {
                findings.append(
                    LintFinding(
                        .placeholderMismatch, at: translated.location,
                        "\(LintQuoting.quoted(key)): \(problem) (as in \(referenceName))",
                        related: original.location, key: key))
            }
            findings += formFindings(
                key, translated.entry, of: original.entry, styles: styles,
                at: translation.variableLocations[key] ?? [:], else: translated.location,
                suffix: " (as in \(referenceName))", related: original.location)
            findings += percentFindings(
                key, translated.entry, of: original.entry, styles: styles,
                at: translation.variableLocations[key] ?? [:], else: translated.location,
                suffix: " (as in \(referenceName))", related: original.location)
            findings += textFindings(
                key, translated.entry, of: original.entry,
                unchanged: keptUnchanged.map { !$0.contains(key) && !(unchangedWords > 1 && respelled.contains(key)) }
                    ?? false, unchangedWords: unchangedWords,
                ownWords: ownWords,
                at: translation.variableLocations[key] ?? [:], else: translated.location, suffix: "",
                related: original.location)
        }
        for key in translation.order where reference.values[key] == nil {
            guard let translated = translation.values[key] else { continue }
            findings.append(
                LintFinding(
                    .obsoleteKey, at: translated.location,
                    "obsolete key \(LintQuoting.quoted(key)): \(referenceName) no longer has it", key: key))
        }
        return findings
    }

    /// Plural forms other than `other` (which the entry's value already compares) whose
    /// placeholders conflict with the development language's form of the same category or
    /// its `other`: a `%@` in Russian `few` where English has `%d`. A form without a
    /// placeholder the original has is allowed (`one` = "a file").
    static func formFindings(
        _ key: String, _ translated: TableEntry, of original: TableEntry, styles: PlaceholderStyles,
        at variableLocations: [String: SourceLocation], else location: SourceLocation, suffix: String,
        related: SourceLocation? = nil
    ) -> [LintFinding] {
        guard let plural = translated.plural else { return [] }
        var findings: [LintFinding] = []
        for (name, variable) in plural.variables.sorted(by: { $0.key < $1.key }) {
            let reference = original.plural?.variables[name]
            for (category, form) in variable.forms.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where category != .other {
                // The same category first (the message names it), then `other`, then the
                // original's other forms: Arabic `two` ("followed by %1$@ and two others")
                // may take English `one`'s arguments where English has no `two`.
                let same = [reference?.forms[category], reference?.forms[.other] ?? original.value].compactMap { $0 }
                let rest = (reference?.forms ?? [:]).filter { $0.key != category && $0.key != .other }
                    .sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value)
                let originals = same + rest
                guard let problem = styles.formMismatch(originals, form) else { continue }
                findings.append(
                    LintFinding(
                        .placeholderMismatch, at: variableLocations[name] ?? location,
                        "\(LintQuoting.quoted(key))\(suffix): plural variable \(LintQuoting.quoted(name)) form \(category.rawValue): \(problem)",
                        related: related))
            }
        }
        return findings
    }

    /// `en.lproj/Localizable.strings`: enough of a path to name it in a message.
    static func shortName(_ path: String) -> String {
        let components = path.split(separator: "/")
        return components.suffix(2).joined(separator: "/")
    }
}
