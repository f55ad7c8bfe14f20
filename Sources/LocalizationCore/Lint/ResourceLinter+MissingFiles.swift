import Foundation

extension ResourceLinter {
    /// The languages of one resource directory (the one holding the `.lproj` directories and
    /// String Catalogs), as lint found them there.
    struct DirectoryLanguages {
        /// Each language's `.lproj` directory name and the file names it has, by identifier.
        var lproj: [String: (directory: String, names: Set<String>)] = [:]
        /// The String Catalogs of the directory.
        var catalogs: [ResourceFile] = []
    }

    /// `untranslated` for what a language lacks altogether, as ``TranslationCoverage``
    /// counts it: every key of a reference file its `.lproj` does not have (`ja.lproj`
    /// without the `Settings.strings` that `en.lproj` has), and every key of a String Catalog
    /// that has no localization at all in a language of an `.lproj` beside it.
    ///
    /// Only files among `scanned` (found in the directories lint was given) are considered,
    /// each resource directory on its own; Base and pseudo-languages never lack anything,
    /// nor does the development language lack its own files, as in coverage. A missing
    /// file's keys are placed at line 1 of its would-be path, with the reference's entry as
    /// the related place; a catalog's, at the key in the catalog.
    static func missingFileFindings(
        _ scanned: [ResourceFile], references: inout ReferenceFiles,
        entries: (ResourceFile) -> Entries?
    ) -> [LintFinding] {
        var directories: [String: DirectoryLanguages] = [:]
        for file in scanned {
            let parent = (file.path as NSString).deletingLastPathComponent
            guard file.kind != .stringCatalog else {
                directories[parent, default: DirectoryLanguages()].catalogs.append(file)
                continue
            }
            guard let language = file.language, isTranslation(language.identifier) else { continue }
            let resources = (parent as NSString).deletingLastPathComponent
            directories[resources, default: DirectoryLanguages()].lproj[
                language.identifier, default: ((parent as NSString).lastPathComponent, [])
            ].names.insert((file.path as NSString).lastPathComponent)
        }
        let development = references.developmentLanguage.identifier
        var findings: [LintFinding] = []
        for (resources, found) in directories.sorted(by: { $0.key < $1.key }) {
            let catalogs = found.catalogs.compactMap { entries($0)?.catalog }
            var languages = Set(found.lproj.keys)
            for (catalog, _) in catalogs { languages.formUnion(catalog.tables.keys.compactMap(canonical)) }
            let referenceFiles = references.files(in: resources).sorted { $0.key < $1.key }
            for language in languages.sorted() where language != development && isTranslation(language) {
                let lproj = found.lproj[language]
                for (name, reference) in referenceFiles where lproj?.names.contains(name) != true {
                    guard let original = entries(reference) else { continue }
                    let path = resources + "/" + (lproj?.directory ?? language + ".lproj") + "/" + name
                    let elsewhere = keysInOtherFiles(of: path, language: language, entries: entries)
                    findings += missingKeys(original, of: reference.path, in: path, except: elsewhere)
                }
            }
            for (catalog, locator) in catalogs {
                let present = Set(catalog.tables.keys.compactMap(canonical))
                for language in found.lproj.keys.sorted()
                where !present.contains(language) && language != canonical(catalog.sourceLanguage) {
                    // The `.lproj`'s own files of the catalog's table (`Menu.strings` beside `Menu.xcstrings`).
                    let table = ((locator.file ?? "") as NSString).lastPathComponent
                    let lproj = resources + "/" + found.lproj[language]!.directory
                    let elsewhere = keysInOtherFiles(of: lproj + "/" + table, language: language, entries: entries)
                    let group = LintFinding.Group(
                        id: (locator.file ?? "") + "\n" + language,
                        summary: "keys untranslated: \(table) has no \(language) localization at all")
                    findings += untranslatedCatalogKeys(catalog, in: language, locator: locator, except: elsewhere).map
                    {
                        var finding = $0
                        finding.group = group
                        return finding
                    }
                }
            }
        }
        return findings
    }

    /// Every key of `reference` (the file at `referencePath`), missing from the file at `path`,
    /// but those in `translated` (the language's other files of the table have them).
    static func missingKeys(
        _ reference: Entries, of referencePath: String, in path: String, except translated: Set<String> = []
    ) -> [LintFinding] {
        let group = LintFinding.Group(
            id: path,
            summary: "keys untranslated: there is no \(shortName(path)) (\(shortName(referencePath)) has them)")
        return reference.order.compactMap { key in
            guard !translated.contains(key), let location = reference.values[key]?.location else { return nil }
            var finding = LintFinding(
                .untranslated, at: SourceLocation(file: path, line: 1, column: 1),
                "missing key \(LintQuoting.quoted(key)) (there is no \(shortName(path)); \(shortName(referencePath)):\(location.line) has it)",
                related: location)
            finding.group = group
            return finding
        }
    }

    /// Whether `identifier` is a language translators write: not Base, not a pseudo-language.
    static func isTranslation(_ identifier: String) -> Bool {
        identifier != LanguageTag.base.identifier && PseudoLocalization(rawValue: identifier) == nil
    }

    /// A catalog's language name as an `.lproj`'s reads (`pt_BR` → `pt-BR`).
    static func canonical(_ name: String) -> String? {
        (try? LanguageTag(name))?.identifier
    }
}
