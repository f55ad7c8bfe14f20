import CommandLineHelp
import Foundation
import LocalizationCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads `l10nd.conf`: `key = value` lines, `#` comment lines, blank lines.
///
/// The format, in full:
/// - A line whose first non-blank character is `#` is a comment; a `#` later in a line is
///   part of the value (paths may contain it).
/// - Otherwise a line is `key = value`; blanks around both are dropped, and a value wrapped
///   in double quotes loses the quotes (to keep leading or trailing blanks). No escapes.
/// - `resources` may repeat; every other key may appear once.
/// - Relative paths (`resources`, `socket`) are taken from the configuration file's directory.
///
/// Errors name the place: `l10nd.conf:7: unknown key 'setle_ms' (did you mean 'settle_ms'?)`.
/// Every line is read, so one error says them all (``ConfigurationError/further``): the
/// operator fixes the file in one pass, not one line per start.
///
/// ```swift
/// let configuration = try ConfigurationParser.parse(text: text, file: "/etc/l10nd/l10nd.conf")
/// ```
package enum ConfigurationParser {
    /// Parses configuration text over the defaults.
    ///
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - file: The file's path, used in errors and to resolve relative paths.
    ///   - defaults: The values keys not in the file keep.
    package static func parse(text: String, file: String, defaults: DaemonConfiguration = DaemonConfiguration())
        throws(ConfigurationError) -> DaemonConfiguration
    {
        let base = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var configuration = defaults
        configuration.resources = []
        configuration.resourceSpellings = []
        configuration.settingLines = [:]
        var seen: [ConfigurationKey: Int] = [:]
        var lineNumber = 0
        var errors: [ConfigurationError] = []
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            func fail(_ message: String) -> ConfigurationError {
                ConfigurationError(code: .invalidConfiguration, file: file, line: lineNumber, message: message)
            }
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                errors.append(fail("expected 'key = value', got '\(line)'"))
                continue
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard !name.isEmpty else {
                errors.append(fail("expected a key before '='"))
                continue
            }
            guard let key = ConfigurationKey(rawValue: name) else {
                errors.append(fail(Suggestion.unknown("key", name, among: ConfigurationKey.allCases.map(\.rawValue))))
                continue
            }
            if !key.isRepeatable, let first = seen[key] {
                errors.append(fail("'\(name)' is already set on line \(first)"))
                continue
            }
            do {
                try key.apply(value, to: &configuration, base: base)
                // Only a value taken sets the key: a line fixing a bad one is no repeat of it.
                seen[key] = seen[key] ?? lineNumber
                configuration.settingLines[key.rawValue] = lineNumber
            } catch {
                errors.append(fail("\(name): \(error.message)"))
            }
        }
        if var first = errors.first {
            first.further = Array(errors.dropFirst())
            throw first
        }
        return configuration
    }

    /// The largest configuration file read: far above any real one (a few KB), so a path
    /// given by mistake (a log, an image) is refused rather than read whole.
    static let maximumFileBytes = 1 << 20

    /// Reads and parses the file at `path`.
    package static func parse(contentsOf path: String, defaults: DaemonConfiguration = DaemonConfiguration())
        throws(ConfigurationError) -> DaemonConfiguration
    {
        let data: [UInt8]
        // Said in l10nd's words (the path, the system's reason, what to do), not Foundation's
        // "The file couldn't be opened because…".
        switch ResourceFileReader.read(path, maximumBytes: maximumFileBytes) {
        case .bytes(let bytes): data = bytes
        case .gone:
            throw unreadable(
                path,
                "there is no such file (give --config the path of an existing l10nd.conf; the package installs "
                    + "/etc/l10nd/l10nd.conf, and config/l10nd.conf in the source is an example to copy)")
        case .failed(let reason):
            let fix =
                access(path, F_OK) == 0 && access(path, R_OK) != 0
                ? " (make it readable by the user l10nd runs as, or run l10nd as a user who may read it)" : ""
            throw unreadable(path, reason + fix)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigurationError(
                code: .unreadableConfiguration, file: path, message: "the configuration file is not UTF-8")
        }
        return try parse(text: text, file: path, defaults: defaults)
    }

    private static func unreadable(_ path: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(
            code: .unreadableConfiguration, file: path, message: "cannot read the configuration file: \(reason)")
    }
}
