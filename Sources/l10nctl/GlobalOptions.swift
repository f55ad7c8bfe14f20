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

        /// How the help shows it.
        var term: String {
            switch self {
            case .socket: "--socket PATH"
            case .resources: "--resources DIR"
            case .developmentLanguage: "--development-language TAG"
            }
        }

        /// What the help says of it.
        var text: String {
            switch self {
            case .socket: "l10nd's socket (default L10N_SOCKET, else the path 'l10nctl socket-path' prints)."
            case .resources: "A resource directory (repeatable; default L10N_RESOURCES)."
            case .developmentLanguage: "The last language of every chain (default en)."
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

    init(_ arguments: [String]) throws(UsageError) {
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let argument = iterator.next() {
            if onlyPositionals {
                rest.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                rest.append(argument)
                continue
            }
            if argument == "-h" || argument == "--help" {
                help = true
                continue
            }
            if argument == "--version" {
                version = true
                continue
            }
            if argument == "--json" {
                try setFormat("json", given: "--json")
                continue
            }
            guard argument.hasPrefix("--") else {
                if command == nil { command = argument } else { rest.append(argument) }
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            let global = Name(rawValue: name)
            guard global != nil || name == "format" else {
                rest.append(argument)
                continue
            }
            guard let value = inlineValue ?? iterator.next() else { throw UsageError("--\(name) needs a value") }
            if let global {
                values[global, default: []].append(value)
            } else {
                try setFormat(value, given: "--format \(value)")
            }
        }
    }

    /// The last value of `name`, if given.
    func value(_ name: Name) -> String? { values[name]?.last }

    /// `--name=value` as (`name`, `value`); `--name` as (`name`, nil).
    static func split(_ argument: String) -> (name: String, value: String?) {
        let name = argument.dropFirst(2)
        guard let equals = name.firstIndex(of: "=") else { return (String(name), nil) }
        return (String(name[..<equals]), String(name[name.index(after: equals)...]))
    }

    private mutating func setFormat(_ value: String, given: String) throws(UsageError) {
        if let format, format != value {
            throw UsageError("\(given) contradicts --format \(format): give one output format")
        }
        format = value
    }
}
