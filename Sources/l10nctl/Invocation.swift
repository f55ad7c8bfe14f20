import CommandLineHelp
import Foundation
import LocalizationCore

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
        // Every command says the same about a socket path the kernel cannot take (`new.sock`
        // is relative: it would be "not listening" to one command, "not absolute" to another).
        if let socket = globals.value(.socket), !Self.isUsableSocketPath(socket) {
            throw UsageError(
                "--socket needs an absolute path (or @name) of at most 107 bytes without NUL, not '\(socket)'")
        }
        if let text = globals.value(.timeout) {
            // At most a day: the socket's time limit is set in whole microseconds, and `inf` or
            // 1e300 would trap converting to an integer.
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw UsageError(
                    "--timeout takes a number of seconds above 0 and at most 86400 such as 10, not '\(text)'")
            }
            givenTimeout = seconds
        }
        try Self.checkDevelopmentLanguage(
            globals.value(.developmentLanguage), strict: arguments.flags.contains("strict"))
        // An operand too many is a mistake to say, not to ignore (`l10nctl status ja`).
        if let maximum = command.maximumOperands, arguments.positionals.count > maximum {
            throw UsageError("unexpected argument '\(arguments.positionals[maximum])'")
        }
    }

    /// Refuses a `--development-language` that is no tag, and warns of one CLDR does not know
    /// (`jp`), as l10nd does of its `development_language`; with `--strict` that is refused too.
    static func checkDevelopmentLanguage(_ value: String?, strict: Bool) throws(UsageError) {
        guard let value else { return }
        let tag: LanguageTag
        // Written once on a command line, as in l10nd's configuration: `english` is refused with the tag to write.
        do { tag = try LanguageTag.written(value) } catch { throw UsageError("--development-language: \(error)") }
        guard let unknown = UnknownLanguage.check(tag) else { return }
        if strict { throw UsageError("--development-language \(unknown) (--strict)") }
        FileHandle.standardError.write(Data("l10nctl: warning: --development-language \(unknown)\n".utf8))
    }

    /// Whether `path` fits a Unix socket address: absolute (or `@` and an abstract name) and
    /// at most 107 bytes, as the kernel's `sun_path` holds.
    static func isUsableSocketPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard !bytes.contains(0) else { return false }
        if path.hasPrefix("@") { return bytes.count > 1 && bytes.count <= 108 }
        return path.hasPrefix("/") && bytes.count <= 107
    }

    /// How long every command that talks to l10nd waits for an answer unless `--timeout`
    /// says otherwise: one default for all, so `get` and `status` give up alike.
    static let defaultTimeout = 10.0
    /// `reload`'s default: its answer waits for a full rescan of every root.
    static let reloadTimeout = 60.0
    static var defaultTimeoutText: String { DaemonCommands.seconds(defaultTimeout) }
    static var reloadTimeoutText: String { DaemonCommands.seconds(reloadTimeout) }

    /// `--timeout`, if given (checked: a number of seconds above 0, at most a day).
    private var givenTimeout: Double?

    /// How long to wait for l10nd's answer: `--timeout`, else ``defaultTimeout`` (``reloadTimeout`` for reload).
    var timeout: Double { givenTimeout ?? (command.name == "reload" ? Self.reloadTimeout : Self.defaultTimeout) }

    /// Whether the output is JSON.
    var json: Bool { format == "json" }

    /// `--socket`, if given (else the connection uses L10N_SOCKET or the default path).
    var socket: String? { globals.value(.socket) }

    /// The resource directories: the command's arguments, then every `--resources`.
    var paths: [String] { arguments.positionals + globals.values[.resources, default: []] }

    /// `--development-language`, or `en`.
    var developmentLanguage: String { globals.value(.developmentLanguage) ?? "en" }
}
