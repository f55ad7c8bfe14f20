import CommandLineHelp

/// `l10nctl help [COMMAND]`: the overview, a command's help, or `l10nctl(1)` in roff.
enum HelpCommand {
    static func run(_ invocation: Invocation) throws(UsageError) {
        let topics = invocation.arguments.positionals
        if invocation.format == "man" {
            guard topics.isEmpty else { throw UsageError("--format man prints the whole l10nctl(1); name no COMMAND") }
            print(L10nctlHelp.manualPage.roff(version: "l10nctl \(ProductVersion.string)"), terminator: "")
            return
        }
        guard let topic = topics.first else {
            print(L10nctlHelp.overview.text)
            return
        }
        guard let command = CommandCatalog.command(topic) else { throw CommandCatalog.unknown(topic) }
        print(L10nctlHelp.text(of: command))
    }
}
