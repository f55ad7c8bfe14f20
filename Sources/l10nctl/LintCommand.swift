import Foundation
import LocalizationCore

/// `l10nctl lint PATH...`: findings on stdout, a count on stderr, exit 1 on errors.
enum LintCommand {
    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let parsed = try CommandArguments(arguments, valueOptions: ["development-language"], flagOptions: [])
        guard !parsed.positionals.isEmpty else { throw UsageError("lint needs at least one file or directory") }
        let development: LanguageTag
        do { development = try LanguageTag(parsed.value("development-language") ?? "en") } catch {
            throw UsageError("\(error)")
        }
        let findings = ResourceLinter.lint(paths: parsed.positionals, developmentLanguage: development)
        for finding in findings { print(finding) }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        FileHandle.standardError.write(
            Data("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n".utf8))
        return errors > 0 ? 1 : 0
    }
}
