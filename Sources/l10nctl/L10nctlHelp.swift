import CommandLineHelp

/// `l10nctl`'s help pages, made from ``CommandCatalog``: `l10nctl --help` prints
/// ``overview`` as text, `help COMMAND` one command's section, and `l10nctl(1)` is
/// ``manualPage`` (`l10nctl help --format man`).
enum L10nctlHelp {
    static let synopsis = ["l10nctl [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS]"]

    static let globalOptions = HelpSection(
        "GLOBAL OPTIONS",
        paragraphs: ["Accepted before or after the command; each command's help names the ones it uses."],
        entries: GlobalOptions.Name.allCases.map { HelpEntry($0.term, $0.text) } + [
            HelpEntry("--format FORMAT", "text or json on every command that prints data (see each command)."),
            HelpEntry("--json", "The same as --format json."),
            HelpEntry("-h, --help", "The help of the command, or this overview."),
            HelpEntry("--version", "Print the version."),
        ])

    static let closingSections = [
        HelpSection(
            "ENVIRONMENT",
            entries: [
                HelpEntry("L10N_SOCKET", "l10nd's socket, when --socket is not given."),
                HelpEntry("L10N_RESOURCES", "Resource directories for get, separated by colons."),
                HelpEntry(
                    "XDG_RUNTIME_DIR",
                    "Where the per-user socket lies ($XDG_RUNTIME_DIR/l10nd/l10nd.sock), used when it exists; "
                        + "else /run/l10nd/l10nd.sock."),
                HelpEntry("LANGUAGE, LC_ALL, LC_MESSAGES, LANG", "get's languages when no --lang is given."),
            ]),
        HelpSection(
            "EXIT STATUS",
            entries: [
                HelpEntry("0", "Success."),
                HelpEntry("1", "Failure: no l10nd answered, a file is missing, lint found errors."),
                HelpEntry("2", "A usage error; the message says what to type instead."),
            ]),
    ]

    /// `l10nctl --help`: the command list, the global options, the environment.
    static var overview: HelpPage {
        HelpPage(
            name: "l10nctl", section: 1, summary: "look up, check and inspect localized strings", synopsis: synopsis,
            sections: [
                HelpSection(
                    "COMMANDS",
                    paragraphs: ["Run 'l10nctl help COMMAND' or 'l10nctl COMMAND --help' for a command's options."],
                    entries: CommandCatalog.all.map { HelpEntry($0.name + " " + $0.arguments, $0.summary) }),
                globalOptions,
            ] + closingSections)
    }

    /// `l10nctl(1)`: the overview with every command's help in full.
    static var manualPage: HelpPage {
        var page = overview
        page.sections.insert(
            HelpSection("COMMAND DETAILS", subsections: CommandCatalog.all.map(\.helpSection)), at: 1)
        page.sections.append(HelpSection("SEE ALSO", paragraphs: ["l10nd(8), l10nd.conf(5)"]))
        return page
    }

    /// `help COMMAND`: its usage, text and options.
    static func text(of command: CommandDescription) -> String {
        let section = command.helpSection
        var lines = ["Usage: \(command.usage)", ""]
        lines += section.paragraphs.flatMap { HelpText.wrap($0, width: HelpPage.textWidth) }
        if !section.entries.isEmpty {
            lines += [""] + HelpSection("OPTIONS", entries: section.entries).textLines(indent: 0)
        }
        return lines.joined(separator: "\n")
    }
}
