/// The help text of every command.
enum Usage {
    static let overview = """
        l10nctl: look up, check and inspect localized strings.

        Usage: l10nctl <command> [options]

        Commands:
          get KEY       print KEY's value in a language (from files, or from l10nd)
          dump FILE     print a .strings, .stringsdict or .xcstrings file as JSON
          coverage DIR  per language, the share of the development language's keys translated
          lint PATH...  check files and directories for errors and missing translations
          export DIR    write a language's strings as XLIFF (Xcode) or .po (Poedit, Weblate)
          import DIR F  write a translator's XLIFF or .po back into the files
          status        what l10nd serves: languages, keys, errors with file:line:column, counters
          reload        make l10nd re-read everything; returns once the new tables are served
          watch         print each change l10nd applies, as it happens
          missing       keys looked up but found in no language (also as a .strings skeleton)
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
        "missing": """
        Usage: l10nctl missing [--format text|json|strings] [--lang TAG] [--table NAME] [--socket PATH]

        Lists the keys looked up but found in no language, with how often. --format strings
        --lang ja prints a .strings skeleton of them for a translator to fill in.
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
        Usage: l10nctl lint PATH... [--format text|json|sarif] [--severity RULE=error|warning|off]...
                                    [--placeholders STYLES] [--development-language TAG]

        Checks .strings, .stringsdict and .xcstrings files (directories are searched for
        them) and prints one finding per line: file:line:column: error|warning: message [rule].
        Exits 1 when there are errors. Rules (default severity):
          file (error), bad-entry (error), incomplete-entry, duplicate-key, untranslated,
          empty-value, obsolete-key, plural-forms, review-state (warnings),
          placeholder-mismatch (error). See docs/TRANSLATORS.md.

        Options:
          --format text|json|sarif    text lines (default), a JSON object, or a SARIF 2.1.0 log
          --json                      the same as --format json
          --severity RULE=LEVEL       a rule's severity: error, warning or off (repeatable)
          --placeholders STYLES       printf,percent-number,braces (default: printf, plus %0 and
                                      {name} styles when the development language uses them)
          --development-language TAG  the language translations are compared with (default en,
                                      else Base)
        """,
        "export": """
        Usage: l10nctl export DIR --lang TAG [--format xliff|po] [--output FILE] [--development-language TAG]

        Writes DIR's strings in the development language with their TAG translations, as
        XLIFF 1.2 the way Xcode writes it (default; --output x.po picks po) or as a gettext
        .po file with CLDR plural forms. See docs/TRANSLATORS.md.
        """,
        "import": """
        Usage: l10nctl import DIR FILE [--lang TAG] [--format xliff|po] [--development-language TAG]

        Writes the translations in FILE (XLIFF or .po, from export and a translator's tool)
        into DIR's .strings, .stringsdict and .xcstrings files. Only values that differ are
        changed, each in place; comments and order are kept; each changed file is replaced
        in one rename, so l10nd reloads it. Prints the files changed; what cannot be written
        is reported and makes the exit code 1. The language comes from FILE unless --lang.
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
