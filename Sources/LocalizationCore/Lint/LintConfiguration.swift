import Foundation

/// A project's lint settings in a file, `.l10nd-lint`, so that every run (a translator's, the
/// CI step's) checks alike: one `NAME = VALUE` a line, `#` starts a comment.
///
/// ```text
/// # l10nctl lint settings
/// unchanged-from-source = off        # any rule: error, warning, note or off
/// double-space = note
/// placeholders = printf,braces       # instead of detecting the styles
/// ```
///
/// `l10nctl lint` reads the file named by `--config`, else the nearest `.l10nd-lint` in the
/// directory of the first path it checks or above it. `--severity` and `--placeholders` on
/// the command line win over the file.
public enum LintConfiguration {
    /// The file name lint looks for.
    public static let fileName = ".l10nd-lint"

    /// The nearest ``fileName`` in `path`'s directory (`path` itself when it is one) or one of
    /// its ancestors, or `nil`.
    public static func find(from path: String) -> String? {
        var isDirectory: ObjCBool = false
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var directory =
            FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && isDirectory.boolValue
            ? absolute : (absolute as NSString).deletingLastPathComponent
        while true {
            let candidate = (directory as NSString).appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory || parent.isEmpty { return nil }
            directory = parent
        }
    }

    /// Applies the settings of `text` (read from `file`) to `options`.
    /// - Throws: a message at `file:line` for a line that is no setting, an unknown rule or
    ///   level, or unknown placeholder styles.
    public static func apply(_ text: String, file: String, to options: inout LintOptions) throws(LintOptionError) {
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            let at = "\(file):\(index + 1)"
            let parts = trimmed.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw LintOptionError(
                    "\(at): expected NAME = VALUE (a rule and error|warning|note|off, or placeholders = STYLES), not '\(trimmed)'"
                )
            }
            if parts[0] == "placeholders" {
                guard let styles = PlaceholderStyles(names: parts[1]) else {
                    throw LintOptionError(
                        "\(at): placeholders takes a comma-separated list of printf, percent-number, braces, not '\(parts[1])'"
                    )
                }
                options.placeholderStyles = styles
                continue
            }
            do {
                try options.setSeverity("\(parts[0])=\(parts[1])")
            } catch {
                throw LintOptionError("\(at): \(error.description.replacing("--severity ", with: ""))")
            }
        }
    }
}
