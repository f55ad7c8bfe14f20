import CommandLineHelp
import Foundation
import LocalizationCore

/// `l10nctl coverage DIR…`: the share of its reference keys each language translates (a
/// catalog's table against its `sourceLanguage`, others against the development language),
/// as a table with a bar per language or as JSON. Each file that could not be read (and each
/// entry left out of one) is named on stderr as lint names it, its keys counted untranslated,
/// and the exit code is then 1 when one is an error, as lint's is (an entry left out of a
/// file that is served is a warning there, as in lint). An entry skipped for its name
/// (``SkippedName``: `de_DE-typo.lproj`) is in no row: it is listed after the table, and named
/// on stderr as lint's `skipped-name`, an error unless configured otherwise.
enum CoverageCommand {
    /// Characters of the widest bar.
    static let barWidth = 20

    static func run(_ invocation: Invocation) throws -> Int32 {
        let roots = invocation.paths
        guard !roots.isEmpty else { throw UsageError("coverage takes at least one resource directory") }
        // Lint's settings: a file error is reported, and fails, as lint would report it.
        let options = try LintCommand.severities(invocation, firstPath: roots[0])
        let development = options.developmentLanguage
        for root in roots where !FileManager.default.fileExists(atPath: root) {
            throw CommandFailure("\(root): no such directory")
        }
        try DevelopmentLanguagePresence.check(development, roots: roots)
        let resources = ResourceSet.load(roots: roots, developmentLanguage: development)
        let coverage = TranslationCoverage(resources: resources)
        if invocation.json {
            let object: [String: Any] = [
                "reference": coverage.reference,
                "references": coverage.references,
                // Folders of no language are in no row: said with why, not left out.
                "skipped": coverage.skipped.map { skipped in
                    [
                        "path": skipped.displayPath, "reason": skipped.reason.rawValue, "message": skipped.message,
                        "kind": skipped.isDirectory ? "directory" : "file",
                    ]
                },
                "languages": coverage.languages.map { language in
                    [
                        "lang": language.language, "translated": language.translated, "total": language.total,
                        "needs_review": language.needsReview, "new": language.new, "stale": language.stale,
                        "same_as_source": language.sameAsSource,
                        "percent": (language.fraction * 1000).rounded() / 10,
                    ] as [String: Any]
                },
            ]
            let data = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return report(resources.errors, skipped: coverage.skipped, options: options)
        }
        // Languages are folder names: escaped, as every name from the files l10nctl prints.
        let width = max(4, coverage.languages.map { DisplayText.escaped($0.language).count }.max() ?? 0)
        print("reference: \(coverage.reference)")
        for language in coverage.languages {
            let filled = Int((language.fraction * Double(barWidth)).rounded())
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
            let percent = String(format: "%5.1f%%", language.fraction * 100)
            let name = DisplayText.escaped(language.language).padding(toLength: width, withPad: " ", startingAt: 0)
            let marks = [
                (language.sameAsSource, "same as source"), (language.needsReview, "needs review"),
                (language.new, "new"), (language.stale, "stale"),
            ]
            let review = marks.filter { $0.0 > 0 }.map { "  \($0.0) \($0.1)" }.joined()
            print("\(name)  \(bar) \(percent)  \(language.translated)/\(language.total)\(review)")
        }
        for skipped in coverage.skipped {
            print(LintReport.printable("skipped: \(skipped.message)"))
        }
        return report(resources.errors, skipped: coverage.skipped, options: options)
    }

    /// Names each of `errors` on stderr after the table (`file:line:column: error: message`,
    /// lint's form, with the severity `options` give its rule, as lint would: by default an
    /// entry left out of a file that is served is a warning, and a rule turned `off` is not
    /// named, though its keys still count untranslated), then each of `skipped` as lint's
    /// `skipped-name` finding: 1 when one is an error, else 0.
    static func report(_ errors: [ResourceParseError], skipped: [SkippedName], options: LintOptions) -> Int32 {
        let unread = errors.compactMap { error in
            options.severity(of: error.rule ?? .file).map {
                ("\(error.location): \($0.rawValue): \(error.message)", $0)
            }
        }
        // As lint reports them (`skipped-name`): their files are counted nowhere, not untranslated.
        let unserved = skipped.compactMap { skipped in
            options.severity(of: .skippedName).map { severity in
                var finding = ResourceLinter.skippedNameFinding(skipped)
                finding.severity = severity
                return (finding.description, severity)
            }
        }
        guard !unread.isEmpty || !unserved.isEmpty else { return 0 }
        // The table first, whole: with `2>&1` the errors must not land mid-line.
        fflush(nil)
        var lines = unread.map(\.0)
        if !unread.isEmpty { lines.append(counted(unread.map(\.1)) + ": their keys count as untranslated") }
        lines += unserved.map(\.0)
        if !unserved.isEmpty { lines.append(counted(unserved.map(\.1)) + ": skipped for their names, counted nowhere") }
        FileHandle.standardError.write(Data(lines.map { LintReport.printable($0) + "\n" }.joined().utf8))
        return (unread + unserved).contains { $0.1 == .error } ? 1 : 0
    }

    /// `2 errors, 1 warning`.
    private static func counted(_ severities: [LintFinding.Severity]) -> String {
        let failed = severities.count { $0 == .error }
        let warned = severities.count - failed
        var counts: [String] = []
        if failed > 0 { counts.append("\(failed) error\(failed == 1 ? "" : "s")") }
        if warned > 0 { counts.append("\(warned) warning\(warned == 1 ? "" : "s")") }
        return counts.joined(separator: ", ")
    }
}
