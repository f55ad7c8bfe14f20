import CommandLineHelp

/// The options `l10nctl` takes anywhere on the line, before or after the command, and the
/// command they surround.
///
/// `l10nctl --socket X status` and `l10nctl status --socket X` are the same line. What is
/// not a global option is left, in order, for the command's own parser.
struct GlobalOptions {
    /// A global option that takes a value.
    enum Name: String, CaseIterable, Sendable {
        case socket
        case resources
        case developmentLanguage = "development-language"
        case timeout

        /// How the help shows it.
        var term: String {
            switch self {
            case .socket: "--socket PATH"
            case .resources: "--resources DIR"
            case .developmentLanguage: "--development-language TAG"
            case .timeout: "--timeout SECONDS"
            }
        }

        /// What the help says of it.
        var text: String {
            switch self {
            case .socket: "l10nd's socket (default L10N_SOCKET, else the path 'l10nctl socket-path' prints)."
            case .resources: "A resource directory (repeatable; default L10N_RESOURCES)."
            case .developmentLanguage: "The last language of every chain (default en)."
            case .timeout:
                "How long to wait for l10nd to answer, in seconds (default \(Invocation.defaultTimeoutText); "
                    + "reload: \(Invocation.reloadTimeoutText), for its rescan)."
            }
        }
    }

    /// The command, if one was named.
    var command: String?
    /// The arguments that are not global options, in order, for the command.
    var rest: [String] = []
    /// Each global value option's values, in order.
    var values: [Name: [String]] = [:]
    /// `--format`, or `json` for `--json`.
    var format: String?
    /// `--help` or `-h`.
    var help = false
    /// `--version`.
    var version = false

    /// The global options: every other option is handed on to the command.
    static let grammar = ArgumentGrammar(
        valueOptions: Name.allCases.map(\.rawValue) + ["format"], flags: ["help", "version", "json"],
        shortFlags: ["-h": "help"], passesUnknownOptions: true)

    init(_ arguments: [String]) throws(UsageError) {
        var parser = ArgumentParser(arguments, grammar: Self.grammar)
        var afterEndOfOptions = false
        while let argument = try parser.next() {
            switch argument {
            case .flag("help"): help = true
            case .flag("version"): version = true
            case .flag: try setFormat("json", given: "--json")  // --json, the grammar's third flag
            case .option("format", let value): try setFormat(value, given: "--format \(value)")
            case .option(let name, let value):
                if let global = Name(rawValue: name) { values[global, default: []].append(value) }
            case .endOfOptions:
                // The command reads `--` too: what follows is its positionals, never the command.
                afterEndOfOptions = true
                rest.append("--")
            case .positional(let word) where command == nil && !afterEndOfOptions: command = word
            case .positional(let word), .unknownOption(let word): rest.append(word)
            }
        }
    }

    /// The last value of `name`, if given.
    func value(_ name: Name) -> String? { values[name]?.last }

    private mutating func setFormat(_ value: String, given: String) throws(UsageError) {
        if let format, format != value {
            throw UsageError("\(given) contradicts --format \(format): give one output format")
        }
        format = value
    }
}
