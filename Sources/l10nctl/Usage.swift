/// The help text of every command.
enum Usage {
    static let overview = """
        l10nctl: look up, check and inspect localized strings.

        Usage: l10nctl <command> [options]

        Commands:
          get KEY       print KEY's value in a language (from files, or from l10nd)
          dump FILE     print a .strings, .stringsdict or .xcstrings file as JSON
          coverage DIR  per language, the share of the development language's keys translated
          report --html FILE [DIR...]  one HTML page: coverage, plurals, lint, untranslated in use
          lint PATH...  check files and directories for errors and missing translations
          status        what l10nd serves: languages, keys, errors with file:line:column, counters
          reload        make l10nd re-read everything; returns once the new tables are served
          watch         print each change l10nd applies, as it happens
          missing       keys each language lacked when asked (also as a .strings or .po skeleton)
          reset         zero l10nd's counters and missing-key report, printing what they held
          languages     the languages and tables l10nd serves
          help [CMD]    show this help, or a command's

        Commands that talk to l10nd find it with --socket PATH, else L10N_SOCKET, else
        $XDG_RUNTIME_DIR/l10nd/l10nd.sock (or /tmp/l10nd-$UID/l10nd.sock).

        Run 'l10nctl help <command>' or 'l10nctl <command> --help' for details.
        Exit codes: 0 success, 1 failure, 2 usage error.
        """

    static let commands: [String: String] = [
        "get": """
        Usage: l10nctl get KEY [--lang TAG]... [--table NAME] [--count N]... [--resources DIR...] [--json]

        Prints KEY's value in the first language that has it: each --lang in turn (or
        the languages of LANGUAGE/LC_ALL/LC_MESSAGES/LANG), then Base, then the
        development language. A key no language has prints as itself. With --resources
        (or L10N_RESOURCES) the files are read directly; otherwise l10nd is asked.

        Options:
          --lang TAG                  a preferred language (repeatable): ja, pt-BR, zh_Hant_TW…,
                                      or an Accept-Language list: "de-DE,de;q=0.9,en;q=0.8"
          --table NAME                the table (default Localizable)
          --count N                   pick the plural form for N (21, or a decimal: 1.5, 1.50) and fill N in;
                                      repeat it for one count per format argument (--count 3 --count 1)
          --resources DIR             a resource directory (repeatable; default L10N_RESOURCES)
          --development-language TAG  the last language in every chain (default en)
          --json                      print {"value":…,"found":…,"lang":…} instead
          --socket PATH               the daemon's socket (default L10N_SOCKET, then the default path)
        """,
        "status": """
        Usage: l10nctl status [--json] [--socket PATH]

        Shows what l10nd serves: generation, languages, tables, keys and files; every file
        that fails to parse, as file:line:column: message (it keeps its last good table);
        and the counters of lookups, misses, reloads, rescans, the watcher and the server.
        """,
        "reload": """
        Usage: l10nctl reload [--socket PATH] [--timeout SECONDS]

        Makes l10nd rescan every resource directory and returns once the new tables are
        served (systemd's ExecReload uses it). Prints the new generation.
        """,
        "watch": """
        Usage: l10nctl watch [--json] [--socket PATH]

        Prints one line per change l10nd applies, as it happens:
        generation 4: ja/Localizable, ja/Settings. --json prints the protocol's event lines.
        """,
        "report": """
        Usage: l10nctl report --html FILE [--socket PATH] [--development-language TAG] [DIR...]

        Writes one self-contained HTML page (no scripts, nothing fetched): coverage per
        language and table, plural forms missing per language's CLDR categories, lint
        findings with file:line:column, and what users hit untranslated per language when a
        daemon answers (--socket, L10N_SOCKET or the default socket). Without DIR, the
        daemon's own resource directories.
        """,
        "missing": """
        Usage: l10nctl missing [--format text|json|strings|po] [--lang TAG] [--table NAME] [--socket PATH]

        Lists the keys users of each language asked for and that language lacks, with how
        often and what they saw instead: a fallback's string (Base, the development language,
        a later preference) or, found in no language, the key. --format strings (or po)
        --lang ja prints a .strings (or .po) skeleton of them for a translator to fill in.
        """,
        "reset": """
        Usage: l10nctl reset [--json] [--socket PATH]

        Zeroes l10nd's counters (lookups, misses, reloads, rescans, files parsed) and empties
        its missing-key report in one step, and prints what they held, so a monitor that
        reads and resets loses nothing counted in between. Only root and l10nd's own user
        may reset; anyone else gets a 'forbidden' error.
        """,
        "languages": """
        Usage: l10nctl languages [--json] [--socket PATH]

        Lists the languages l10nd serves, each with its tables.
        """,
        "dump": """
        Usage: l10nctl dump FILE

        Prints FILE as JSON on stdout. A .strings file prints as one object {key: value};
        a .stringsdict as {key: entry} with its plural variants; an .xcstrings as its
        source language and its entries per language. As in the daemon, only a regular
        file of at most 128 MiB is read.
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
        "coverage": """
        Usage: l10nctl coverage DIR... [--format text|json] [--development-language TAG]

        For each language under the resource directories, how many of the development
        language's keys (every table) it translates, and how many of those a String Catalog
        marks needs_review. Text output is a table with a bar per language.
        """,
        "help": """
        Usage: l10nctl help [COMMAND]

        Shows the overview, or COMMAND's help.
        """,
    ]
}
