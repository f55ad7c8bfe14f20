import Foundation
import LocalizationCore

/// `l10nctl lint PATH...`: findings on stdout (text, JSON or SARIF), a count on stderr,
/// exit 1 on errors.
enum LintCommand {
    static let formats = ["text", "json", "sarif"]

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let parsed = try CommandArguments(
            arguments, valueOptions: ["development-language", "format", "severity", "placeholders"],
            flagOptions: ["json"])
        guard !parsed.positionals.isEmpty else { throw UsageError("lint needs at least one file or directory") }
        let format = parsed.flags.contains("json") ? "json" : parsed.value("format") ?? "text"
        guard formats.contains(format) else { throw UsageError("--format is text, json or sarif, not '\(format)'") }
        var options = LintOptions()
        do { options.developmentLanguage = try LanguageTag(parsed.value("development-language") ?? "en") } catch {
            throw UsageError("\(error)")
        }
        do { for setting in parsed.values("severity") { try options.setSeverity(setting) } } catch {
            throw UsageError("\(error)")
        }
        if let names = parsed.value("placeholders") {
            guard let styles = PlaceholderStyles(names: names) else {
                throw UsageError("--placeholders takes a comma-separated list of printf, percent-number, braces")
            }
            options.placeholderStyles = styles
        }
        let report = LintReport(
            findings: ResourceLinter.lint(paths: parsed.positionals, options: options), options: options)
        switch format {
        case "json": print(report.json())
        case "sarif": print(report.sarif())
        default: print(report.text, terminator: "")
        }
        let (errors, warnings) = (report.errorCount, report.warningCount)
        FileHandle.standardError.write(
            Data("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n".utf8))
        return errors > 0 ? 1 : 0
    }
}
