import Foundation

extension ResourceLinter {
    /// The keys a language has in a table's other files: lookup and ``TranslationCoverage``
    /// merge a table's `.strings`, `.stringsdict` and String Catalog per language, so a key a
    /// language lacks in one of them but has in another is translated, not `untranslated`.
    ///
    /// `path` is an `.lproj` file, present or not (`de.lproj/Localizable.stringsdict`); the
    /// other files are the same table's `.strings` and `.stringsdict` in the same `.lproj`
    /// and the catalog (`Localizable.xcstrings`) in the resource directory holding it, read
    /// from the disk whether lint was given them or not, as reference files are.
    static func keysInOtherFiles(
        of path: String, language: String, entries: (ResourceFile) -> Entries?
    ) -> Set<String> {
        let lproj = (path as NSString).deletingLastPathComponent
        let table = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let resources = (lproj as NSString).deletingLastPathComponent
        var keys: Set<String> = []
        let candidates =
            ["strings", "stringsdict"].map { lproj + "/" + table + "." + $0 } + [
                resources + "/" + table + ".xcstrings"
            ]
        for candidate in candidates where candidate != path && FileManager.default.fileExists(atPath: candidate) {
            guard let file = ResourceFile(path: candidate), let found = entries(file) else { continue }
            if let (catalog, _) = found.catalog {
                let localization = catalog.tables.first { canonical($0.key) == language }?.value ?? [:]
                keys.formUnion(localization.keys)
            } else {
                keys.formUnion(found.values.keys)
            }
        }
        return keys
    }

    /// The keys each language (by identifier) has in the `.lproj` files of the catalog at
    /// `path`'s table beside it (`de.lproj/Menu.strings` and `.stringsdict` for `Menu.xcstrings`).
    static func lprojKeys(besideCatalog path: String, options: LintOptions) -> [String: Set<String>] {
        let resources = (path as NSString).deletingLastPathComponent
        let table = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var keys: [String: Set<String>] = [:]
        for directory in (try? FileManager.default.contentsOfDirectory(atPath: resources)) ?? [] {
            guard let language = ResourceFile.language(ofDirectory: directory)?.identifier else { continue }
            for name in [table + ".strings", table + ".stringsdict"] {
                let candidate = resources + "/" + directory + "/" + name
                guard FileManager.default.fileExists(atPath: candidate), let file = ResourceFile(path: candidate),
                    let found = try? entries(of: file, options: options).get().entries
                else { continue }
                keys[language, default: []].formUnion(found.values.keys)
            }
        }
        return keys
    }
}
