import CommandLineHelp

/// A command line taken apart: the command, its own arguments, the global options and
/// the output format, every part checked against what the command takes.
struct Invocation {
    var command: CommandDescription
    /// The command's own options and positionals.
    var arguments: CommandArguments
    var globals: GlobalOptions
    /// `--format`, else the command's default.
    var format: String

    init(_ command: CommandDescription, _ globals: GlobalOptions) throws(UsageError) {
        self.command = command
        self.globals = globals
        for name in GlobalOptions.Name.allCases where globals.values[name] != nil && !command.globals.contains(name) {
            let users = CommandCatalog.all.filter { $0.globals.contains(name) }.map(\.name)
            throw UsageError(
                "\(command.name) does not use --\(name.rawValue); the commands that do: \(users.joined(separator: ", "))"
            )
        }
        if let format = globals.format {
            guard !command.formats.isEmpty else { throw UsageError("\(command.name) prints no data to format") }
            guard command.formats.contains(format) else {
                throw UsageError(
                    "\(command.name) --format is \(command.formats.joined(separator: " or ")), not '\(format)'")
            }
        }
        format = globals.format ?? command.formats.first ?? "text"
        arguments = try CommandArguments(globals.rest, of: command)
        // An operand too many is a mistake to say, not to ignore (`l10nctl status ja`).
        if let maximum = command.maximumOperands, arguments.positionals.count > maximum {
            throw UsageError("unexpected argument '\(arguments.positionals[maximum])'")
        }
    }

    /// Whether the output is JSON.
    var json: Bool { format == "json" }

    /// `--socket`, if given (else the connection uses L10N_SOCKET or the default path).
    var socket: String? { globals.value(.socket) }

    /// The resource directories: the command's arguments, then every `--resources`.
    var paths: [String] { arguments.positionals + globals.values[.resources, default: []] }

    /// `--development-language`, or `en`.
    var developmentLanguage: String { globals.value(.developmentLanguage) ?? "en" }
}
