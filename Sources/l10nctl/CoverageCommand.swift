import CommandLineHelp
import Foundation
import LocalizationCore

/// `l10nctl coverage DIR…`: the share of its reference keys each language translates (a
/// catalog's table against its `sourceLanguage`, others against the development language),
/// as a table with a bar per language or as JSON. Each file that could not be read (and each
/// entry left out of one) is named on stderr as lint names it, its keys counted untranslated,
/// and the exit code is then 1 when one is an error, as lint's is (an entry left out of a
/// file that is served is a warning there, as in lint).
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
            return report(resources.errors, options: options)
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
        return report(resources.errors, options: options)
    }

    /// Names each of `errors` on stderr after the table (`file:line:column: error: message`,
    /// lint's form, with the severity `options` give its rule, as lint would: by default an
    /// entry left out of a file that is served is a warning, and a rule turned `off` is not
    /// named, though its keys still count untranslated): 1 when one is an error, else 0.
    static func report(_ errors: [ResourceParseError], options: LintOptions) -> Int32 {
        let reported = errors.compactMap { error in options.severity(of: error.rule ?? .file).map { (error, $0) } }
        guard !reported.isEmpty else { return 0 }
        // The table first, whole: with `2>&1` the errors must not land mid-line.
        fflush(nil)
        let lines = reported.map { "\($0.location): \($1.rawValue): \($0.message)" }
        let failed = reported.count { $0.1 == .error }
        let warned = reported.count - failed
        var counts: [String] = []
        if failed > 0 { counts.append("\(failed) error\(failed == 1 ? "" : "s")") }
        if warned > 0 { counts.append("\(warned) warning\(warned == 1 ? "" : "s")") }
        let count = counts.joined(separator: ", ") + ": their keys count as untranslated"
        FileHandle.standardError.write(Data((lines + [count]).map { LintReport.printable($0) + "\n" }.joined().utf8))
        return failed > 0 ? 1 : 0
    }
}
