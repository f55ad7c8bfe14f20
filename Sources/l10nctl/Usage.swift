/// The help text of every command.
enum Usage {
    static let overview = """
        l10nctl: look up, check and inspect localized strings.

        Usage: l10nctl <command> [options]

        Commands:
          get KEY       print KEY's value in a language
          dump FILE     print a .strings, .stringsdict or .xcstrings file as JSON
          lint PATH...  check files and directories for errors and missing translations
          help [CMD]    show this help, or a command's

        Run 'l10nctl help <command>' or 'l10nctl <command> --help' for details.
        Exit codes: 0 success, 1 failure, 2 usage error.
        """

    static let commands: [String: String] = [
        "get": """
            Usage: l10nctl get KEY [--lang TAG]... [--table NAME] --resources DIR... [--json]

            Prints KEY's value in the first language that has it: each --lang in turn (or
            the languages of LANGUAGE/LC_ALL/LC_MESSAGES/LANG), then Base, then the
            development language. A key no language has prints as itself.

            Options:
              --lang TAG                  a preferred language (repeatable): ja, pt-BR, zh_Hant_TW…
              --table NAME                the table (default Localizable)
              --resources DIR             a resource directory (repeatable; default L10N_RESOURCES)
              --development-language TAG  the last language in every chain (default en)
              --json                      print {"value":…,"found":…,"lang":…} instead
            """,
        "dump": """
            Usage: l10nctl dump FILE

            Prints FILE as JSON on stdout. A .strings file prints as one object {key: value};
            a .stringsdict as {key: entry} with its plural variants; an .xcstrings as its
            source language and its entries per language.
            """,
        "lint": """
            Usage: l10nctl lint PATH... [--development-language TAG]

            Checks .strings, .stringsdict and .xcstrings files (directories are searched for
            them) and prints one line per finding: file:line:column: error|warning: message.
            Reported: syntax errors, duplicate keys (the last one wins), keys the development
            language has that a translation lacks, and format specifiers that differ from the
            development language's (%@ translated as %d). Exits 1 when there are errors.

            Options:
              --development-language TAG  the language translations are compared with (default en,
                                          else Base)
            """,
        "help": """
            Usage: l10nctl help [COMMAND]

            Shows the overview, or COMMAND's help.
            """,
    ]
}
