import Foundation
import LocalizationCore
import LocalizationInterchange

/// The resource files behind a missing-key report (the directories given, else the
/// daemon's roots), so its skeletons are what a translator can use: each key's source text
/// as its value, plural keys and String Catalog keys as the export writes them (`.po`
/// plural messages, catalog ids), and keys the language has translated since left out.
struct MissingStringsSources {
    let roots: [String]
    let developmentLanguage: LanguageTag
    let catalog: ResourceCatalog
    /// Entries skipped for their names: a key translated only in one is still reported missing.
    let skipped: [SkippedName]

    init(roots: [String], developmentLanguage: LanguageTag) {
        self.roots = roots.filter { FileManager.default.fileExists(atPath: $0) }
        self.developmentLanguage = developmentLanguage
        let resources = ResourceSet.load(roots: self.roots, developmentLanguage: developmentLanguage)
        catalog = resources.catalog
        skipped = resources.skipped
    }

    /// Whether `language` (or its language alone, `ja` for `ja-JP`) has a non-empty value
    /// of `key` in `table` in the files now: translated since it was reported.
    func isTranslated(language: String, table: String, key: String) -> Bool {
        guard let tag = try? LanguageTag(language) else { return false }
        return [tag.identifier, tag.language].contains { identifier in
            guard let entry = catalog.tables[identifier]?[table]?[key] else { return false }
            return !entry.value.isEmpty || entry.plural != nil
        }
    }

    /// The source text of `key` in `table`: its reference language's (a catalog's
    /// `sourceLanguage`, else the development language's, else Base's) entry.
    func source(table: String, key: String) -> TableEntry? {
        let languages = [
            catalog.sourceLanguages[table]?.identifier, developmentLanguage.identifier, LanguageTag.base.identifier,
        ]
        return languages.compactMap { $0 }.lazy.compactMap { catalog.tables[$0]?[table]?[key] }.first
    }

    /// The export's messages (``PODocument``) for `items` in `language`: every unit of their
    /// keys that is still untranslated, each noted with how often users asked; the items
    /// no file has are returned for the caller to write as they are.
    func poMessages(_ items: [MissingStringsSkeleton.Item], language: String) -> (
        po: String?, unplaced: [MissingStringsSkeleton.Item]
    ) {
        guard let tag = try? LanguageTag(language) else { return (nil, items) }
        var wanted: [String: MissingStringsSkeleton.Item] = [:]
        for item in items { wanted["\(item.table)\u{0}\(item.key)"] = item }
        var placed: Set<String> = []
        var merged: TranslationProject?
        for root in roots {
            guard
                let whole = try? TranslationProject(root: root, developmentLanguage: developmentLanguage, language: tag)
            else { continue }
            let project = whole.filtered { file, unit in
                let table = ((file.original as NSString).lastPathComponent as NSString).deletingPathExtension
                let id = "\(table)\u{0}\(unit.address.key)"
                guard let item = wanted[id], (unit.target ?? "").isEmpty else { return nil }
                placed.insert(id)
                var unit = unit
                unit.note = [unit.note, item.note].compactMap { $0 }.joined(separator: "\n")
                return unit
            }
            merged = merged.map { $0.adding(filesOf: project) } ?? project
        }
        let unplaced = items.filter { !placed.contains("\($0.table)\u{0}\($0.key)") }
        guard let merged, !merged.files.isEmpty else { return (nil, unplaced) }
        return (PODocument.render(merged), unplaced)
    }
}

extension ResourceEdit {
    /// The key of the entry the edit writes into.
    var key: String {
        switch self {
        case .strings(let key, _), .stringsDictFormat(let key, _), .stringsDictForm(let key, _, _, _),
            .catalogValue(let key, _, _), .catalogPluralForm(let key, _, _, _), .catalogState(let key, _, _, _):
            key
        }
    }
}
