import Foundation
public import LocalizationCore

/// The translatable files of one resource directory for one target language: what
/// `l10nctl export` writes and `l10nctl import` writes back into.
///
/// `.strings` and `.stringsdict` files of the development language's `.lproj` (else
/// `Base.lproj`) pair with the target language's file of the same name; a String Catalog
/// holds both. Catalog device variations and substitutions are not exported.
public struct TranslationProject: Sendable {
    /// The resource directory.
    public var root: String
    /// The language of the sources.
    public var developmentLanguage: LanguageTag
    /// The language of the targets: the existing localization the requested one matched.
    public var language: LanguageTag
    /// The language asked for (`--lang`, or the file's own).
    public var requestedLanguage: LanguageTag
    /// Every file with its units.
    public internal(set) var files: [TranslationFile] = []
    /// The entries under the root skipped for their names (``LocalizationCore/SkippedName``:
    /// `de_DE-typo.lproj`): none of their files is exported or written, so the commands say so.
    public internal(set) var skipped: [SkippedName] = []
    /// The localizations the directory has (`.lproj` folders and catalog languages).
    var localizations: Set<LanguageTag> = []

    /// Reads `root`'s files. `language` is matched to the localizations the directory has
    /// by the rules of lookup (``FallbackChain``): `de-DE` writes into an existing `de`,
    /// `ja_JP` into `ja`, `zh-CN` into `zh-Hans`, never into the development language's.
    /// - Throws: ``ResourceParseError`` for a file that cannot be read.
    public init(root: String, developmentLanguage: LanguageTag, language: LanguageTag) throws(ResourceParseError) {
        self.root = root
        self.developmentLanguage = developmentLanguage
        self.requestedLanguage = language
        let survey = ResourceScanner.survey(directory: root, rootIndex: 0)
        skipped = survey.skipped
        let scanned = survey.files
        var catalogs: [(path: String, bytes: [UInt8], catalog: StringCatalog)] = []
        for file in scanned where file.kind == .stringCatalog {
            let bytes = try ResourceFileReader.bytes(of: file.path).get()
            catalogs.append((file.path, bytes, try StringCatalogReader.parse(bytes, file: file.path)))
        }
        var existing = Set(scanned.compactMap(\.language))
        for entry in catalogs { existing.formUnion(entry.catalog.tables.keys.compactMap { try? LanguageTag($0) }) }
        self.localizations = existing
        self.language = Self.localization(for: language, among: existing, developmentLanguage: developmentLanguage)
        let development = scanned.filter { $0.language == developmentLanguage && $0.kind != .stringCatalog }
        let sources = development.isEmpty ? scanned.filter { $0.language?.isBase == true } : development
        for file in sources {
            let original = relative(file.path)
            let targetPath = targetPath(for: file.path)
            let sourceBytes = try ResourceFileReader.bytes(of: file.path).get()
            let targetBytes =
                FileManager.default.fileExists(atPath: targetPath)
                ? try ResourceFileReader.bytes(of: targetPath).get() : nil
            let units: [TranslationUnit] =
                file.kind == .strings
                ? try Self.stringsUnits(sourceBytes, targetBytes, path: file.path, targetPath: targetPath)
                : try Self.stringsDictUnits(
                    sourceBytes, targetBytes, path: file.path, targetPath: targetPath, language: self.language)
            files.append(TranslationFile(original: original, targetPath: targetPath, kind: file.kind, units: units))
        }
        for entry in catalogs {
            files.append(
                TranslationFile(
                    original: relative(entry.path), targetPath: entry.path, kind: .stringCatalog,
                    units: Self.catalogUnits(entry.catalog, entry.bytes, language: self.language)))
        }
    }

    /// The localization `tag` is written to: the first of lookup's spellings and parents of
    /// it (``FallbackChain/expansion(of:)``) that `existing` has, other than `Base` and the
    /// development language's own; else `tag` itself, a new localization.
    static func localization(for tag: LanguageTag, among existing: Set<LanguageTag>, developmentLanguage: LanguageTag)
        -> LanguageTag
    {
        if existing.contains(tag) { return tag }
        let development = Set(FallbackChain.expansion(of: developmentLanguage))
        return FallbackChain.expansion(of: tag).first {
            existing.contains($0) && !$0.isBase && !development.contains($0)
        } ?? tag
    }

    /// Whether `tag` (a file's declared language) names this project's language by lookup's
    /// rules: it is written to the same localization, or one of the two is a spelling or parent
    /// of the other (``FallbackChain/expansion(of:)``: `de_DE` and `de`, `zh-CN` and `zh-Hans`,
    /// also where neither has a folder yet).
    public func isLanguage(_ tag: LanguageTag) -> Bool {
        if Self.localization(for: tag, among: localizations, developmentLanguage: developmentLanguage) == language {
            return true
        }
        return FallbackChain.expansion(of: tag).contains(requestedLanguage)
            || FallbackChain.expansion(of: requestedLanguage).contains(tag)
    }

    /// The file named `original` (as export wrote it), if the project has it.
    public func file(original: String) -> TranslationFile? {
        files.first { $0.original == original }
    }

    private func relative(_ path: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The target language's file of the same name: in its `.lproj` beside the source's,
    /// an existing one whose name means the language, else `LANGUAGE.lproj`.
    private func targetPath(for path: String) -> String {
        let lproj = (path as NSString).deletingLastPathComponent
        let resources = (lproj as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: resources))?.sorted().first {
            $0.hasSuffix(".lproj") && ResourceFile.language(ofDirectory: $0) == language
        }
        return resources + "/" + (existing ?? language.identifier + ".lproj") + "/" + name
    }

    static func stringsUnits(_ source: [UInt8], _ target: [UInt8]?, path: String, targetPath: String)
        throws(ResourceParseError) -> [TranslationUnit]
    {
        let parsed = try StringsParser.parse(source, file: path)
        let translated = try target.map { (bytes) throws(ResourceParseError) in
            try StringsParser.parse(bytes, file: targetPath).table
        }
        let text = source.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(source.dropFirst(3)) : source
        var seen: Set<String> = []
        var previousEnd = 0
        var units: [TranslationUnit] = []
        for entry in parsed.entries {
            let note = entry.keyOffset.flatMap { offset in
                offset >= previousEnd && offset <= text.count ? Self.comment(in: text[previousEnd..<offset]) : nil
            }
            if let end = entry.valueRange?.upperBound { previousEnd = end }
            guard seen.insert(entry.key).inserted else { continue }
            let value = parsed.table[entry.key] ?? entry.value
            let current = translated?[entry.key]
            units.append(
                TranslationUnit(
                    id: entry.key, source: value, target: current, note: note, pluralGroup: nil, category: nil,
                    address: .strings(key: entry.key, value: current ?? "")))
        }
        return units
    }

    /// The text of the comments in `bytes` (between two entries), markers and `;` removed.
    static func comment(in bytes: ArraySlice<UInt8>) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix(";") { text.removeFirst() }
        var parts: [String] = []
        var rest = text[...]
        while let start = rest.firstIndex(where: { $0 == "/" }) {
            let after = rest[rest.index(after: start)...]
            if after.hasPrefix("*"), let end = after.range(of: "*/") {
                parts.append(String(after[after.index(after: after.startIndex)..<end.lowerBound]))
                rest = after[end.upperBound...]
            } else if after.hasPrefix("/") {
                let end = after.firstIndex(of: "\n") ?? after.endIndex
                parts.append(String(after.dropFirst()[..<end]))
                rest = after[end...]
            } else {
                break
            }
        }
        let joined = parts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return joined.isEmpty ? nil : joined.joined(separator: "\n")
    }

    static func stringsDictUnits(
        _ source: [UInt8], _ target: [UInt8]?, path: String, targetPath: String, language: LanguageTag
    ) throws(ResourceParseError) -> [TranslationUnit] {
        let entries = try StringsDictReader.parse(source, file: path)
        let translated =
            try target.map { (bytes) throws(ResourceParseError) in try StringsDictReader.parse(bytes, file: targetPath)
            } ?? [:]
        let order = ValueSpans.propertyList(source)?.keys[[]] ?? entries.keys.sorted()
        let categories = GettextPluralForms(language: language).categories
        var units: [TranslationUnit] = []
        for key in order {
            guard let plural = entries[key]?.plural else { continue }
            let own = translated[key]?.plural
            units.append(
                TranslationUnit(
                    id: "/\(key):dict/NSStringLocalizedFormatKey:dict/:string", source: plural.format,
                    target: own?.format,
                    note: nil, pluralGroup: nil, category: nil,
                    address: .stringsDictFormat(key: key, value: own?.format ?? "")))
            let variableOrder = ValueSpans.propertyList(source)?.keys[[key]] ?? plural.variables.keys.sorted()
            for variable in variableOrder {
                guard let forms = plural.variables[variable]?.forms else { continue }
                let group = "/\(key):dict/\(variable):dict"
                for category in categories {
                    let current = own?.variables[variable]?.forms[category]
                    units.append(
                        TranslationUnit(
                            id: "\(group)/\(category.rawValue):dict/:string",
                            source: forms[category] ?? forms[.other] ?? "", target: current, note: nil,
                            pluralGroup: group,
                            category: category, sourceSingular: forms[.one] ?? forms[.other] ?? "",
                            address: .stringsDictForm(
                                key: key, variable: variable, category: category, value: current ?? "")))
                }
            }
        }
        return units
    }

    static func catalogUnits(_ catalog: StringCatalog, _ bytes: [UInt8], language: LanguageTag) -> [TranslationUnit] {
        guard let source = catalog.tables[catalog.sourceLanguage] else { return [] }
        let code = catalog.tables.keys.first { (try? LanguageTag($0)) == language } ?? language.identifier
        let own = catalog.tables[code] ?? [:]
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        let strings = object?["strings"] as? [String: Any] ?? [:]
        let categories = GettextPluralForms(language: language).categories
        var units: [TranslationUnit] = []
        for key in source.keys.sorted() where !catalog.untranslatableKeys.contains(key) {
            guard let original = source[key] else { continue }
            let note = (strings[key] as? [String: Any])?["comment"] as? String
            let localization = member(strings[key], "localizations", code)
            if let plural = original.plural, let forms = plural.variables["_"]?.forms, plural.variables.count == 1 {
                let group = "\(key)|==|plural"
                for category in categories {
                    let current = own[key]?.plural?.variables["_"]?.forms[category]
                    let state = member(localization, "variations", "plural", category.rawValue, "stringUnit", "state")
                    units.append(
                        TranslationUnit(
                            id: "\(group).\(category.rawValue)", source: forms[category] ?? forms[.other] ?? "",
                            target: current, note: note, pluralGroup: group, category: category,
                            sourceSingular: forms[.one] ?? forms[.other] ?? "",
                            address: .catalogPluralForm(
                                key: key, language: code, category: category, value: current ?? ""),
                            state: TranslationState(catalog: state as? String)))
                }
            } else if original.plural == nil, original.deviceVariants.isEmpty {
                let current = own[key].flatMap { $0.plural == nil ? $0.value : nil }
                let state = member(localization, "stringUnit", "state")
                units.append(
                    TranslationUnit(
                        id: key, source: original.value, target: current, note: note, pluralGroup: nil, category: nil,
                        address: .catalogValue(key: key, language: code, value: current ?? ""),
                        state: TranslationState(catalog: state as? String)))
            }
        }
        return units
    }
}

/// The value at `path` in nested JSON objects, `nil` where any step is missing.
private func member(_ value: Any?, _ path: String...) -> Any? {
    path.reduce(value) { ($0 as? [String: Any])?[$1] }
}
