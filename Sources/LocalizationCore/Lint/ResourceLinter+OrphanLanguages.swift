import Foundation

extension ResourceLinter {
    /// `untranslated` for a language folder that holds no table (an empty `fr.lproj`): the
    /// language looks localized by its folder and translates nothing, which no per-file
    /// check sees, since there is no file. Base is left out: Xcode projects keep
    /// storyboards there. Only directories lint was given are searched.
    static func emptyLanguageFolderFindings(in directories: [String]) -> [LintFinding] {
        var findings: [LintFinding] = []
        let manager = FileManager.default
        for directory in directories {
            guard let walker = manager.enumerator(atPath: directory) else { continue }
            var folders: [String] = []
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                guard name.hasSuffix(".lproj"), let language = ResourceFile.language(ofDirectory: name),
                    !language.isBase
                else { continue }
                walker.skipDescendants()
                folders.append(directory + "/" + relative)
            }
            for folder in folders.sorted() {
                let names = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
                let tables = names.compactMap { ResourceFile(path: folder + "/" + $0) }.filter {
                    $0.kind != .stringCatalog
                }
                guard tables.isEmpty else { continue }
                let what =
                    names.isEmpty ? "it is empty" : "it has \(names.count) other file\(names.count == 1 ? "" : "s")"
                findings.append(
                    LintFinding(
                        .untranslated, at: SourceLocation(file: folder, line: 1, column: 1),
                        "\(shortName(folder)) holds no table (no .strings or .stringsdict file; \(what)): its language "
                            + "translates nothing here; add its tables, or remove the folder"))
            }
        }
        return findings
    }

    /// `obsolete-key` for a translation's table the development language lacks entirely
    /// (`fr.lproj/Legacy.strings` with no file named `Legacy` in the development language's
    /// `.lproj` or Base's — a `.strings`, a `.stringsdict`, or the storyboard or xib an
    /// Xcode-made `.strings` translates — and no `Legacy.xcstrings`): every key of it is one
    /// no source string has, which the per-key comparison never reaches, as there is nothing
    /// to compare with. One finding per file, with its key count.
    static func orphanTableFindings(
        _ files: [ResourceFile], parsed: [String: Entries], references: inout ReferenceFiles
    ) -> [LintFinding] {
        let development = references.developmentLanguage
        var findings: [LintFinding] = []
        for file in files where file.kind != .stringCatalog {
            guard let entries = parsed[file.path], let language = file.language, !language.isBase,
                language != development, isTranslation(language.identifier)
            else { continue }
            let lproj = (file.path as NSString).deletingLastPathComponent
            let resources = (lproj as NSString).deletingLastPathComponent
            let table = ((file.path as NSString).lastPathComponent as NSString).deletingPathExtension
            guard !sourceNames(in: resources, development: development).contains(table),
                !FileManager.default.fileExists(atPath: resources + "/" + table + ".xcstrings")
            else { continue }
            let count = entries.order.count
            findings.append(
                LintFinding(
                    .obsoleteKey, at: SourceLocation(file: file.path, line: 1, column: 1),
                    "obsolete table \(LintQuoting.quoted(table)): the development language (\(development.identifier)) "
                        + "has no such table (no \(table).strings, .stringsdict, storyboard or xib in "
                        + "\(development.identifier).lproj or Base.lproj, no \(table).xcstrings), so this file's "
                        + "\(count) key\(count == 1 ? "" : "s") \(count == 1 ? "has" : "have") no source string"))
        }
        return findings
    }

    /// The names, without extension, of the files in `resources`' `.lproj` folders of the
    /// development language and Base.
    private static func sourceNames(in resources: String, development: LanguageTag) -> Set<String> {
        let manager = FileManager.default
        var names: Set<String> = []
        for folder in (try? manager.contentsOfDirectory(atPath: resources)) ?? [] {
            guard let language = ResourceFile.language(ofDirectory: folder), language.isBase || language == development
            else { continue }
            for name in (try? manager.contentsOfDirectory(atPath: resources + "/" + folder)) ?? [] {
                names.insert((name as NSString).deletingPathExtension)
            }
        }
        return names
    }
}
