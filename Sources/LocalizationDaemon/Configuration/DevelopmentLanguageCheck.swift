package import LocalizationCore

/// What is doubtful about a `development_language` the configuration gives, one sentence
/// each for the log, `status` (`configuration.warnings`) and `STATUS=`: a language CLDR does
/// not know (`jp`), one no root serves, one that contradicts a String Catalog's
/// `sourceLanguage`. Each is a warning: the daemon serves anyway, unless it runs with
/// `--strict` (or is `--check-config`), where each is an error.
///
/// ```swift
/// DevelopmentLanguageCheck.warnings(for: try LanguageTag("de"), segments: snapshot.segments)
/// // ["development_language de contradicts the sourceLanguage en of the String Catalog of table Localizable …"]
/// ```
package enum DevelopmentLanguageCheck {
    /// The warnings for `language` given what `segments` hold; no segments (nothing served
    /// yet) only has its tag checked.
    package static func warnings(for language: LanguageTag, segments: SegmentSet) -> [String] {
        var warnings: [String] = []
        if let unknown = UnknownLanguage.check(language) {
            warnings.append("development_language \(unknown)")
        }
        let served = segments.languages
        guard !served.isEmpty else { return warnings }
        let spellings = Set(FallbackChain.expansion(of: language).map(\.identifier))
        if !served.contains(where: { spellings.contains($0.identifier) }) {
            let listed = served.map(\.identifier).sorted().prefix(8).joined(separator: ", ")
            warnings.append(
                "development_language \(language.identifier) is served by no resource root (no \(language.identifier).lproj "
                    + "folder, no String Catalog with it): a key missing in a language falls back to no text of "
                    + "\(language.identifier) (served: \(listed)\(served.count > 8 ? ", …" : ""))")
        }
        var tablesBySource: [String: [String]] = [:]
        for (table, source) in segments.sourceLanguages where source.language != language.language {
            tablesBySource[source.identifier, default: []].append(table)
        }
        for (source, tables) in tablesBySource.sorted(by: { $0.key < $1.key }) {
            let names = tables.sorted()
            let listed = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            warnings.append(
                "development_language \(language.identifier) contradicts the sourceLanguage \(source) of the String "
                    + "Catalog\(names.count == 1 ? "" : "s") of table\(names.count == 1 ? "" : "s") \(listed): "
                    + "set development_language = \(source), or correct the catalog")
        }
        return warnings
    }
}
