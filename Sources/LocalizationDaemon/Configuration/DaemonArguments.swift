import CommandLineHelp

/// `l10nd`'s command-line flags, parsed and checked but not yet applied.
///
/// Read by `ArgumentParser`, as `l10nctl`'s command line is: flags take their value as the
/// next argument or after `=` (`--settle-ms 50`, `--settle-ms=50`). Values are checked with
/// the same rules as `l10nd.conf`.
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
    /// `--check-config`: read the configuration and the resources, report, exit.
    package var checkConfiguration = false
    /// `--strict`: a doubtful setting (``DevelopmentLanguageCheck``) is an error, not a warning.
    package var strict = false

    /// `--man PAGE`: the manual page to print in roff (`l10nd` or `l10nd.conf`).
    package var manualPage: String?

    /// The text `--help` prints: `l10nd(8)` as plain text.
    package static var usage: String { DaemonHelp.page.text }

    /// The flags that set a configuration key, by name without `--`.
    private static let settingFlags: [String: ConfigurationKey] = [
        "resources": .resources, "socket": .socket, "development-language": .developmentLanguage,
        "log-level": .logLevel, "settle-ms": .settleMilliseconds,
        // A flag too, for where a command line is all there is (a Kubernetes container's
        // `args:`, whose probes ask /readyz and /healthz over HTTP).
        "metrics-listen": .metricsListen,
    ]

    /// `l10nd`'s options, read by the parser `l10nctl` uses too.
    private static let grammar = ArgumentGrammar(
        valueOptions: ["config", "man"] + settingFlags.keys.sorted(),
        flags: ["help", "version", "check-config", "strict"],
        shortFlags: ["-h": "help"])

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: `ConfigurationError` with code `.usage`, e.g.
    ///   `unknown option '--setle-ms' (did you mean '--settle-ms'?)`.
    package static func parse(_ arguments: [String]) throws(ConfigurationError) -> DaemonArguments {
        var parser = ArgumentParser(arguments, grammar: grammar)
        do {
            return try read(&parser)
        } catch {
            throw ConfigurationError(code: .usage, message: error.description)
        }
    }

    /// Every argument `parser` reads, checked as it comes: the first bad one is the one reported.
    private static func read(_ parser: inout ArgumentParser) throws(UsageError) -> DaemonArguments {
        var result = DaemonArguments()
        while let argument = try parser.next() {
            switch argument {
            case .flag("help"): result.showHelp = true
            case .flag("check-config"): result.checkConfiguration = true
            case .flag("strict"): result.strict = true
            case .flag: result.showVersion = true  // --version, the grammar's last flag
            case .positional(let word): throw UsageError("unexpected argument '\(word)'")
            // l10nd takes no positionals, so `--` would end nothing.
            case .endOfOptions: throw UsageError("unexpected argument '--'")
            case .unknownOption: break  // the grammar refuses unknown options
            case .option("man", let page):
                guard DaemonHelp.manualPages[page] != nil else {
                    let pages = DaemonHelp.manualPages.keys.sorted().joined(separator: " or ")
                    throw UsageError("--man takes \(pages), not '\(page)'")
                }
                result.manualPage = page
            case .option("config", let file):
                guard !file.isEmpty else { throw UsageError("option '--config' needs a value") }
                result.configFile = file
            case .option(let name, let value):
                guard let key = settingFlags[name] else { continue }
                var scratch = DaemonConfiguration(environment: [:])
                do {
                    try key.apply(value, to: &scratch, base: "/")
                } catch {
                    throw UsageError("--\(name): \(error.message)")
                }
                result.settings.append(Setting(value: value, key: key))
            }
        }
        return result
    }
}
