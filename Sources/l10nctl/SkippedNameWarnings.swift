import Foundation
import LocalizationCore

/// The stderr warning of a command that walks resource directories for something other than
/// linting (`export`, `import`, `missing`): each entry skipped for its name
/// (``LocalizationCore/SkippedName``: `de_DE-typo.lproj`) and what the command does not do
/// with its files, so a translator's German in a misnamed folder is never passed over
/// without a word. Lint, coverage and report say the same as lint's `skipped-name`.
enum SkippedNameWarnings {
    /// `l10nctl: warning: MESSAGE; its files are CONSEQUENCE`, escaped, one line each.
    static func write(_ skipped: [SkippedName], consequence: String) {
        guard !skipped.isEmpty else { return }
        let lines = skipped.map {
            LintReport.printable("l10nctl: warning: \($0.message); its files are \(consequence)")
        }
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
