import CommandLineHelp

/// One `l10nctl` command as its help and its parser see it: the options it takes, the
/// global options it uses and the output formats it prints.
struct CommandDescription: Sendable {
    /// What is typed: `get`.
    var name: String
    /// Its arguments as the usage line shows them: `KEY`.
    var arguments: String
    /// One line for the command list.
    var summary: String
    /// The help's running text, a paragraph each.
    var paragraphs: [String]
    /// Its own options (globals are listed once for all).
    var options: [HelpEntry] = []
    /// Its own options that take a value, without `--`.
    var valueOptions: Set<String> = []
    /// The options among ``options`` that take no value (`--strict`).
    var flagOptions: Set<String> = []
    /// The global options it uses besides `--format` and `--help`.
    var globals: Set<GlobalOptions.Name> = []
    /// What `--format` may say, the default first; empty when the command prints no data.
    var formats: [String] = ["text", "json"]

    /// How many operands it takes at most, read off ``arguments``: none for `""`, one each
    /// for `KEY` and `[COMMAND]`, any number after `DIR...`.
    var maximumOperands: Int? {
        arguments.contains("...") ? nil : arguments.split(separator: " ").count
    }

    /// The usage line: `l10nctl get KEY [options]`.
    var usage: String {
        var parts = ["l10nctl", name]
        if !arguments.isEmpty { parts.append(arguments) }
        if !options.isEmpty || !globals.isEmpty || formats.count > 1 { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    /// The command's help, as `help COMMAND` prints it and `l10nctl(1)` lists it.
    var helpSection: HelpSection {
        var entries = options
        if formats.count > 1 {
            entries.append(HelpEntry("--format " + formats.joined(separator: "|"), "Output (default \(formats[0]))."))
        }
        for global in GlobalOptions.Name.allCases where globals.contains(global) {
            entries.append(HelpEntry(global.term, global.text))
        }
        return HelpSection(usage, paragraphs: paragraphs, entries: entries)
    }
}
