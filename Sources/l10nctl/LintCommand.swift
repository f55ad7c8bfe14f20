import CommandLineHelp
import Foundation
import LocalizationCore

/// `l10nctl lint PATH...`: findings on stdout (text, JSON or SARIF), a count on stderr,
/// exit 1 on errors.
enum LintCommand {
    static func run(_ invocation: Invocation) throws -> Int32 {
        let paths = invocation.paths
        guard !paths.isEmpty else { throw UsageError("lint needs at least one file or directory") }
        var options = try severities(invocation, firstPath: paths[0])
        try DevelopmentLanguagePresence.check(options.developmentLanguage, roots: paths)
        if let names = invocation.arguments.value("placeholders") {
            guard let styles = PlaceholderStyles(names: names) else {
                throw UsageError("--placeholders takes a comma-separated list of printf, percent-number, braces")
            }
            options.placeholderStyles = styles
        }
        let report = LintReport(
            findings: ResourceLinter.lint(paths: paths, options: options), options: options, roots: paths)
        switch invocation.format {
        case "json": print(report.json())
        case "sarif": print(report.sarif())
        default: print(report.text, terminator: "")
        }
        // The findings first, whole: with `2>&1` the summary must not land mid-line.
        fflush(nil)
        FileHandle.standardError.write(Data((report.summary + "\n").utf8))
        return report.errorCount > 0 ? 1 : 0
    }

    /// The development language and the rules' severities: the `--config` file's, else the
    /// nearest `.l10nd-lint` at or above `firstPath`, then each `--severity`, which wins.
    /// `coverage` reads them too, for the file errors it reports.
    static func severities(_ invocation: Invocation, firstPath: String) throws -> LintOptions {
        var options = LintOptions()
        do {
            options.developmentLanguage = try LanguageTag(invocation.developmentLanguage)
        } catch { throw UsageError("\(error)") }
        // The project's file first, so the command line wins over it.
        if let file = invocation.arguments.value("config") ?? LintConfiguration.find(from: firstPath) {
            // In our words, as the daemon says of its own file: Foundation's reason names no fix.
            let text: String
            switch ResourceFileReader.read(file) {
            case .bytes(let bytes):
                guard let decoded = String(validating: bytes, as: UTF8.self) else {
                    throw CommandFailure("\(file): the lint configuration is not UTF-8")
                }
                text = decoded
            case .gone:
                throw CommandFailure(
                    "\(file): cannot read the lint configuration: there is no such file (give --config an existing "
                        + "file, or leave it out to use the nearest .l10nd-lint)")
            case .failed(let reason):
                throw CommandFailure("\(file): cannot read the lint configuration: \(reason)")
            }
            do { try LintConfiguration.apply(text, file: file, to: &options) } catch {
                throw CommandFailure("\(error)")
            }
        }
        do {
            for setting in invocation.arguments.values("severity") { try options.setSeverity(setting) }
        } catch { throw UsageError("\(error)") }
        return options
    }
}
