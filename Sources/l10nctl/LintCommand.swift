import Foundation
import LocalizationCore

/// `l10nctl lint PATH...`: findings on stdout, a count on stderr, exit 1 on errors.
enum LintCommand {
    static func run(_ invocation: Invocation) throws -> Int32 {
        let paths = invocation.paths
        guard !paths.isEmpty else { throw UsageError("lint needs at least one file or directory") }
        let development: LanguageTag
        do { development = try LanguageTag(invocation.developmentLanguage) } catch { throw UsageError("\(error)") }
        let findings = ResourceLinter.lint(paths: paths, developmentLanguage: development)
        if invocation.json {
            let objects: [[String: Any]] = findings.map { finding in
                [
                    "file": finding.location.file ?? NSNull(), "line": finding.location.line,
                    "column": finding.location.column, "severity": finding.severity.rawValue,
                    "message": finding.message,
                ]
            }
            let data = try JSONSerialization.data(
                withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for finding in findings { print(finding) }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        FileHandle.standardError.write(
            Data("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\n".utf8))
        return errors > 0 ? 1 : 0
    }
}
