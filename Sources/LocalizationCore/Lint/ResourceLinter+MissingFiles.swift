import Foundation

extension ResourceLinter {
    /// `untranslated` for every key of a reference file that a language's `.lproj` lacks
    /// altogether: `ja.lproj` without the `Settings.strings` that `en.lproj` has leaves all
    /// of its keys untranslated, as ``TranslationCoverage`` counts them.
    ///
    /// Only languages with a file among `scanned` (the files lint found in the directories
    /// it was given) are checked, in their own resource directory; Base, the development
    /// language and pseudo-languages never are, as in coverage. Each finding is placed at
    /// line 1 of the missing file's path, with the reference's entry as the related place.
    static func missingFileFindings(
        _ scanned: [ResourceFile], references: inout ReferenceFiles,
        entries: (ResourceFile) -> Entries?
    ) -> [LintFinding] {
        // Per resource directory, per language: its `.lproj` directory's name and the files it has.
        var languages: [String: [String: (lproj: String, names: Set<String>)]] = [:]
        for file in scanned where file.kind != .stringCatalog {
            guard let language = file.language, !language.isBase, language != references.developmentLanguage,
                PseudoLocalization(rawValue: language.identifier) == nil
            else { continue }
            let lproj = (file.path as NSString).deletingLastPathComponent
            let resources = (lproj as NSString).deletingLastPathComponent
            let directory = (lproj as NSString).lastPathComponent
            languages[resources, default: [:]][language.identifier, default: (directory, [])].names.insert(
                (file.path as NSString).lastPathComponent)
        }
        var findings: [LintFinding] = []
        for (resources, present) in languages.sorted(by: { $0.key < $1.key }) {
            let referenceFiles = references.files(in: resources).sorted { $0.key < $1.key }
            for (_, language) in present.sorted(by: { $0.key < $1.key }) {
                for (name, reference) in referenceFiles where !language.names.contains(name) {
                    guard let original = entries(reference) else { continue }
                    let path = resources + "/" + language.lproj + "/" + name
                    let referenceName = shortName(reference.path)
                    for key in original.order {
                        guard let location = original.values[key]?.location else { continue }
                        findings.append(
                            LintFinding(
                                .untranslated, at: SourceLocation(file: path, line: 1, column: 1),
                                "missing key \(LintQuoting.quoted(key)) (there is no \(shortName(path)); \(referenceName):\(location.line) has it)",
                                related: location))
                    }
                }
            }
        }
        return findings
    }
}
