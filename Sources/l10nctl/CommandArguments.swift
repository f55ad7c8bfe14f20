import CommandLineHelp

/// A command's arguments split into positionals, options with values, and flags.
///
/// Read by ``ArgumentParser`` with the command's ``grammar``: `--name value` and
/// `--name=value` both work; an option may repeat (`--lang ja --lang en`); `--` ends options.
/// Anything unknown is a ``UsageError``.
struct CommandArguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The command's own options, and the global ones: the globals are taken before the
    /// command reads its arguments, so they are named here only for what is left of them: a
    /// flag given a value (`--json=1`) is told so, and a misspelt one is suggested.
    static func grammar(of command: CommandDescription) -> ArgumentGrammar {
        ArgumentGrammar(
            valueOptions: command.valueOptions.sorted() + GlobalOptions.grammar.valueOptions,
            flags: command.flagOptions.sorted() + GlobalOptions.grammar.flags)
    }

    init(_ arguments: [String], of command: CommandDescription) throws(UsageError) {
        var parser = ArgumentParser(arguments, grammar: Self.grammar(of: command))
        while let argument = try parser.next() {
            switch argument {
            case .positional(let word): positionals.append(word)
            case .option(let name, let value): options[name, default: []].append(value)
            case .flag(let name): flags.insert(name)
            // The grammar refuses unknown options; `--` only ends them.
            case .unknownOption, .endOfOptions: break
            }
        }
    }

    /// The last value given for `name`, if any.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for `name`, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }
}
