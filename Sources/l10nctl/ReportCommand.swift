import CommandLineHelp
import Foundation
import LocalizationCore
import LocalizationWire

/// `l10nctl report --html FILE [DIR…]`: one self-contained page for a project lead
/// (docs/REPORT.md). Without directories, the running daemon's resource roots.
enum ReportCommand {
    static func run(_ invocation: Invocation) throws {
        guard let output = invocation.arguments.value("html") else { throw UsageError("report needs --html FILE") }
        let development: LanguageTag
        do { development = try LanguageTag(invocation.developmentLanguage) } catch { throw UsageError("\(error)") }
        var roots = invocation.paths
        if roots.isEmpty {
            let status = try DaemonCommands.fields(.status, on: try DaemonCommands.connect(invocation))
            roots = status["roots"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard !roots.isEmpty else { throw UsageError("report takes resource directories, or a daemon's") }
        }
        for root in roots where !FileManager.default.fileExists(atPath: root) {
            throw CommandFailure("\(root): no such directory")
        }
        try DevelopmentLanguagePresence.check(development, roots: roots)
        let report = try ResourceReport.gather(
            roots: roots, developmentLanguage: development, socket: invocation.socket, timeout: invocation.timeout)
        let onStandardOutput = try ReportOutput.write(HTMLReport.render(report), to: output)
        // Counted by severity as the page and `lint` count them: a note is not a warning.
        let errors = report.findings.count { $0.severity == .error }
        let warnings = report.findings.count { $0.severity == .warning }
        let notes = report.findings.count { $0.severity == .note }
        // With the page on standard output, the summary goes to standard error, out of its way.
        let summary =
            "\(output == "-" ? "standard output" : output): \(report.coverage.languages.count) languages, \(errors) lint errors, "
            + "\(warnings) warnings, \(notes) notes"
        if onStandardOutput {
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        } else {
            print(summary)
        }
    }
}
