import CommandLineHelp

/// `l10nd`'s command-line flags, parsed and checked but not yet applied.
///
/// Flags take their value as the next argument or after `=` (`--settle-ms 50`,
/// `--settle-ms=50`). Values are checked with the same rules as `l10nd.conf`.
package struct DaemonArguments: Sendable, Hashable {
    /// One flag that sets a configuration key, in command-line order.
    package struct Setting: Sendable, Hashable {
        /// The `l10nd.conf` key the flag sets.
        package var name: String { key.rawValue }
        /// The value as given.
        package var value: String
        let key: ConfigurationKey
    }

    /// `--config FILE`.
    package var configFile: String?
    /// The settings flags, in order.
    package var settings: [Setting] = []
    /// `--help` or `-h`.
    package var showHelp = false
    /// `--version`.
    package var showVersion = false

    /// `--man PAGE`: the manual page to print in roff (`l10nd` or `l10nd.conf`).
    package var manualPage: String?

    /// The text `--help` prints: `l10nd(8)` as plain text.
    package static var usage: String { DaemonHelp.page.text }

    private static let flags: [String: ConfigurationKey] = [
        "--resources": .resources, "--socket": .socket, "--development-language": .developmentLanguage,
        "--log-level": .logLevel, "--settle-ms": .settleMilliseconds,
    ]

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `ConfigurationError` with code `.usage`, e.g.
    ///   `unknown option '--setle-ms' (did you mean '--settle-ms'?)`.
    package static func parse(_ arguments: [String]) throws(ConfigurationError) -> DaemonArguments {
        func usage(_ message: String) -> ConfigurationError {
            ConfigurationError(code: .usage, message: message)
        }
        var result = DaemonArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help": result.showHelp = true; continue
            case "--version": result.showVersion = true; continue
            default: break
            }
            guard argument.hasPrefix("-") else { throw usage("unexpected argument '\(argument)'") }
            var flag = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            let known = flag == "--config" || flag == "--man" || flags[flag] != nil
            guard known else {
                let candidates = ["--config", "--help", "--version", "--man"] + flags.keys.sorted()
                throw usage(ConfigurationParser.unknownMessage("option", flag, among: candidates))
            }
            if value == nil {
                guard index < arguments.count else { throw usage("option '\(flag)' needs a value") }
                value = arguments[index]
                index += 1
            }
            let given = value ?? ""
            if flag == "--man" {
                guard DaemonHelp.manualPages[given] != nil else {
                    let pages = DaemonHelp.manualPages.keys.sorted().joined(separator: " or ")
                    throw usage("--man takes \(pages), not '\(given)'")
                }
                result.manualPage = given
                continue
            }
            guard let key = flags[flag] else {
                guard !given.isEmpty else { throw usage("option '\(flag)' needs a value") }
                result.configFile = given
                continue
            }
            var scratch = DaemonConfiguration(environment: [:])
            do {
                try key.apply(given, to: &scratch, base: "/")
            } catch {
                throw usage("\(flag): \(error.message)")
            }
            result.settings.append(Setting(value: given, key: key))
        }
        return result
    }
}
