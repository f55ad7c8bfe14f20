/// One argument of a command line, as an ``ArgumentGrammar`` reads it.
package enum ParsedArgument: Sendable, Hashable {
    /// A flag by its name without dashes: `--strict` and `-h` give `strict` and `help`.
    case flag(String)
    /// An option that takes a value, by its name without `--`, and the value.
    case option(String, value: String)
    /// Anything that is not an option, and everything after `--`.
    case positional(String)
    /// An option the grammar does not know, exactly as given (`--lang=ja`), when the grammar
    /// hands such options on.
    case unknownOption(String)
    /// `--`: every argument after it is positional.
    case endOfOptions
}

/// The one reader of `l10nctl`'s and `l10nd`'s command lines.
///
/// An option takes its value after `=` or as the next argument (`--socket=PATH`,
/// `--socket PATH`), may repeat, and stands anywhere on the line; `--` ends the options;
/// a next argument that starts with `--` is another option, not a value (`l10nd --resources
/// --socket X` is a usage error, not a root named `--socket`): such a value goes after `=`;
/// a word without `--` (`-` included) is positional unless the grammar names it a short
/// flag. Arguments are read one at a time, so the first bad one is the one reported, and a
/// caller may reject an argument before the parser has seen the next.
package struct ArgumentParser {
    private var arguments: ArraySlice<String>
    private let grammar: ArgumentGrammar
    private var onlyPositionals = false

    /// A parser of `arguments` (without the program name) by `grammar`.
    package init(_ arguments: [String], grammar: ArgumentGrammar) {
        self.arguments = arguments[...]
        self.grammar = grammar
    }

    /// The next argument, or nil at the end of the line.
    ///
    /// - Throws: ``UsageError`` for an option without its value (`option '--socket' needs a
    ///   value`, also when the next argument is an option or `--`), a flag given one (`option '--strict' takes no value`) or an option the
    ///   grammar does not know (`unknown option '--setle-ms' (did you mean '--settle-ms'?)`).
    package mutating func next() throws(UsageError) -> ParsedArgument? {
        guard let argument = arguments.popFirst() else { return nil }
        if onlyPositionals { return .positional(argument) }
        if argument == "--" {
            onlyPositionals = true
            return .endOfOptions
        }
        if let flag = grammar.shortFlags[argument] { return .flag(flag) }
        guard argument.hasPrefix("--") else { return .positional(argument) }
        let (name, inlineValue) = Self.split(argument)
        if grammar.flags.contains(name) {
            if inlineValue == nil { return .flag(name) }
            // Handed on, `--json=1` meets a grammar that says what is wrong with it.
            if grammar.passesUnknownOptions { return .unknownOption(argument) }
            throw UsageError("option '--\(name)' takes no value")
        }
        if grammar.valueOptions.contains(name) {
            if let inlineValue { return .option(name, value: inlineValue) }
            // A forgotten value would otherwise swallow the option after it, silently.
            guard let value = arguments.first, !value.hasPrefix("--") else {
                throw UsageError("option '--\(name)' needs a value")
            }
            arguments.removeFirst()
            return .option(name, value: value)
        }
        if grammar.passesUnknownOptions { return .unknownOption(argument) }
        let known = (grammar.valueOptions + grammar.flags).map { "--" + $0 }
        throw UsageError(Suggestion.unknown("option", "--" + name, among: known))
    }

    /// `--name=value` as (`name`, `value`); `--name` as (`name`, nil).
    private static func split(_ argument: String) -> (name: String, value: String?) {
        let name = argument.dropFirst(2)
        guard let equals = name.firstIndex(of: "=") else { return (String(name), nil) }
        return (String(name[..<equals]), String(name[name.index(after: equals)...]))
    }
}
