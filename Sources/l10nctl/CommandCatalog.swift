import CommandLineHelp

/// Every `l10nctl` command, in the order the help lists them.
enum CommandCatalog {
    static let all: [CommandDescription] = [
        CommandDescription(
            name: "get", arguments: "KEY", summary: "print KEY's value in a language (from files, or from l10nd)",
            paragraphs: [
                "Prints KEY's value in the first language that has it: each --lang in turn (or the languages "
                    + "of LANGUAGE/LC_ALL/LC_MESSAGES/LANG), then Base, then the development language. A key no "
                    + "language has prints as itself. With --resources (or L10N_RESOURCES) the files are read "
                    + "directly; otherwise l10nd is asked, and an l10nd that does not answer is a failure "
                    + "(L10N_MODE=cached asks as a program in cached mode does: whole tables, misses reported in "
                    + "batches). --format json prints {\"value\":…,\"found\":…,\"lang\":…}.",
                "Nothing fails quietly: a --resources directory that does not exist or holds no language is an "
                    + "error (one in L10N_RESOURCES a warning), and a --lang tag that no served language matches "
                    + "(jp for ja) is a warning on stderr.",
            ],
            options: [
                HelpEntry(
                    "--lang TAG",
                    "A preferred language (repeatable): ja, pt-BR, zh_Hant_TW, or an Accept-Language list: "
                        + "\"de-DE,de;q=0.9,en;q=0.8\"."),
                HelpEntry(
                    "--table NAME",
                    "The table (default Localizable). One no language has is an error listing the tables; a "
                        + "path (a /) is a usage error."),
                HelpEntry(
                    "--count N",
                    "Pick the plural form for N (21, or a decimal: 1.5, 1.50) and fill N in; repeat it for one "
                        + "count per format argument (--count 3 --count 1). A format that reads more arguments "
                        + "than the counts given is printed as far as it fills, and the exit code is 1."),
                HelpEntry("--strict", "Exit 1 when no language has KEY (the key is still printed)."),
            ],
            valueOptions: ["lang", "table", "count"], flagOptions: ["strict"],
            globals: [.resources, .developmentLanguage, .socket, .timeout]),
        CommandDescription(
            name: "dump", arguments: "FILE", summary: "print a .strings, .stringsdict or .xcstrings file as JSON",
            paragraphs: [
                "Prints FILE as JSON on stdout. A .strings file prints as one object {key: value}; a "
                    + ".stringsdict as {key: entry} with its plural variants; an .xcstrings as its source "
                    + "language and its entries per language. As in the daemon, only a regular file of at most "
                    + "128 MiB is read."
            ],
            formats: ["json"]),
        CommandDescription(
            name: "coverage", arguments: "DIR...",
            summary: "per language, the share of the development language's keys translated",
            paragraphs: [
                "For each language under the resource directories (arguments, and --resources), how many of "
                    + "the development language's keys (every table) it translates, and how many of those a "
                    + "String Catalog marks needs_review. Text output is a table with a bar per language.",
                "A key is untranslated when the language lacks it (a file its .lproj lacks leaves every key of "
                    + "that file untranslated) or has it empty: the keys lint reports untranslated or "
                    + "empty-value. A table only Base.lproj has counts as the development language's own.",
                "A file that cannot be read (or an entry left out of one) is named on stderr, as lint names it, "
                    + "and its keys count as untranslated (lint reports the file error instead of each key); "
                    + "a language all of whose files are broken is still listed. Each is given the severity lint "
                    + "would give it (--severity, --config, the nearest .l10nd-lint: an entry left out is a "
                    + "warning by default, a rule turned off is not named), and the exit code is 1 when one is "
                    + "an error, as lint's. The counts do not change with severities: they say what is served.",
                "A folder skipped for its name (an .lproj named for no language l10nd serves, such as "
                    + "de_DE-typo.lproj, or a name that is not UTF-8) is in no row: it is listed after the table "
                    + "with the reason (\"skipped\" in JSON) and named on stderr as lint's skipped-name, an error "
                    + "by default.",
            ],
            options: [
                HelpEntry("--severity RULE=LEVEL", "A rule's severity, as for lint (repeatable)."),
                HelpEntry("--config FILE", "Lint settings to read instead of the nearest .l10nd-lint."),
            ],
            valueOptions: ["severity", "config"], globals: [.resources, .developmentLanguage]),
        CommandDescription(
            name: "report", arguments: "[DIR...]",
            summary: "one HTML page: coverage, plurals, lint, what users hit untranslated",
            paragraphs: [
                "Writes one self-contained HTML page (inline CSS, no scripts, nothing fetched) for a project "
                    + "lead: coverage per language and table, the plural forms each language lacks among its "
                    + "CLDR categories, lint findings with file:line:column, and, when l10nd answers (--socket, "
                    + "L10N_SOCKET or the default socket), what users of each language hit untranslated. "
                    + "Without resource directories (arguments, and --resources), the daemon's own. A --socket "
                    + "that does not answer is a failure; a default socket that does not is noted in the page."
            ],
            options: [
                HelpEntry(
                    "--html FILE",
                    "Where to write the page (required): a file, replaced atomically (a symbolic link's target); "
                        + "a FIFO or device written to (/dev/stdout); - for standard output.")
            ],
            valueOptions: ["html"], globals: [.resources, .developmentLanguage, .socket, .timeout], formats: []),
        CommandDescription(
            name: "lint", arguments: "PATH...",
            summary: "check files and directories for errors and missing translations",
            paragraphs: [
                "Checks .strings, .stringsdict and .xcstrings files (directories, arguments and --resources, are "
                    + "searched for them) and prints one line per finding: file:line:column: error|warning: "
                    + "message [rule]; --format json prints {findings: [{file, line, column, severity, rule, "
                    + "message, related}], errors, warnings}, --format sarif a SARIF 2.1.0 log. Exits 1 when "
                    + "there are errors.",
                "Rules (default severity): file, bad-entry, placeholder-mismatch, percent-sign (errors); "
                    + "incomplete-entry, duplicate-key, ignored-rest, untranslated (also a language folder with no "
                    + "table), empty-value, obsolete-key (also a table the development language lacks entirely), "
                    + "plural-forms (the language's CLDR categories), review-state (catalog new/stale), "
                    + "format-width (a width or precision over 4095, which formatting refuses), "
                    + "outdated-translation (catalog needs_review), edge-whitespace, newline-count, double-space, "
                    + "url-mismatch, html-tag-mismatch, length-modifier (%d for %ld) (warnings); "
                    + "unchanged-from-source (note). Placeholders are compared as printf, plus the %0 and {name} "
                    + "styles when the development language uses them. Settings are read from --config FILE, "
                    + "else the nearest .l10nd-lint at or above the first path (RULE = LEVEL and placeholders = "
                    + "STYLES lines); the command line wins. See docs/TRANSLATORS.md.",
            ],
            options: [
                HelpEntry("--severity RULE=LEVEL", "A rule's severity: error, warning, note or off (repeatable)."),
                HelpEntry("--config FILE", "Lint settings to read instead of the nearest .l10nd-lint."),
                HelpEntry(
                    "--placeholders STYLES",
                    "The placeholder styles to compare, instead of detecting them: any of printf, "
                        + "percent-number, braces, comma-separated."),
            ],
            valueOptions: ["severity", "placeholders", "config"], globals: [.resources, .developmentLanguage],
            formats: ["text", "json", "sarif"]),
        CommandDescription(
            name: "export", arguments: "DIR", summary: "write a language's strings as XLIFF (Xcode) or .po (Poedit)",
            paragraphs: [
                "Writes DIR's strings in the development language with their --lang translations: as XLIFF 1.2 "
                    + "the way Xcode writes an .xcloc's (default, or an --output ending in .xliff), or as a gettext "
                    + ".po file with the language's CLDR plural forms (--format po, or an --output ending in .po). "
                    + "See docs/TRANSLATORS.md."
            ],
            options: [
                HelpEntry("--lang TAG", "The language of the translations."),
                HelpEntry("--output FILE", "Write to FILE instead of stdout."),
            ],
            valueOptions: ["lang", "output"], globals: [.developmentLanguage], formats: ["xliff", "po"]),
        CommandDescription(
            name: "import", arguments: "DIR FILE", summary: "write a translator's XLIFF or .po back into the files",
            paragraphs: [
                "Writes the translations in FILE (XLIFF or .po, from export and a translator's tool; --format, "
                    + "else FILE's extension) into DIR's .strings, .stringsdict and .xcstrings files. Only values "
                    + "that differ change, each in place; comments and order are kept; each changed file is "
                    + "replaced in one rename, so l10nd reloads it. Prints the files changed; what cannot be "
                    + "written is reported and makes the exit code 1. The language is FILE's unless --lang. "
                    + "Review states travel: a fuzzy (or needs-review, new) translation goes into a String "
                    + "Catalog with that state, and is not written to a .strings or .stringsdict file (reported) "
                    + "unless --accept-fuzzy; so is a translation made for a source text that has changed since "
                    + "(FILE's source or msgid is not the text now), which is also named (outdated:) on stderr. "
                    + "A translation that would replace a value changed in the files since "
                    + "the export is a conflict: they are listed and nothing is written, unless --force."
            ],
            options: [
                HelpEntry("--lang TAG", "The language of the translations (default: FILE's)."),
                HelpEntry("--accept-fuzzy", "Take fuzzy and needs-review translations as final."),
                HelpEntry("--force", "Write translations over values changed since the export."),
            ],
            valueOptions: ["lang"], flagOptions: ["accept-fuzzy", "force"], globals: [.developmentLanguage],
            formats: ["xliff", "po"]),
        CommandDescription(
            name: "status", arguments: "",
            summary: "what l10nd serves: languages, keys, errors with file:line:column, counters",
            paragraphs: [
                "Shows what l10nd serves: generation, languages, tables, keys and files, its resource "
                    + "directories and development language; every file that "
                    + "fails to parse, as file:line:column: message (it keeps its last good table); and the "
                    + "counters of lookups, misses, reloads, rescans, the watcher and the server."
            ],
            globals: [.socket, .timeout]),
        CommandDescription(
            name: "reload", arguments: "", summary: "make l10nd re-read everything; returns once it is served",
            paragraphs: [
                "Makes l10nd read its configuration file again and rescan every resource directory, and "
                    + "returns once the new tables are served (systemd's ExecReload uses it). Prints the new "
                    + "generation and how many tables changed (or, when the rescan found nothing the watcher had not "
                    + "already served, that l10nd was already up to date at generation N), and a configuration: "
                    + "line per setting changed or waiting for a restart (socket, "
                    + "socket_group). Exits 1 when the configuration could not be read or parsed: l10nd keeps the "
                    + "one it runs with, and the error says why. Only root and l10nd's own user may reload. It "
                    + "waits 60 s for the answer unless --timeout says otherwise: a rescan of large roots is slow."
            ],
            globals: [.socket, .timeout]),
        CommandDescription(
            name: "watch", arguments: "", summary: "print each change l10nd applies, as it happens",
            paragraphs: [
                "Prints one line per change l10nd applies, as it happens: generation 4: ja/Localizable, "
                    + "ja/Settings (--format json: the protocol's event lines), and one per saved file that does "
                    + "not parse, where it breaks: FILE:LINE:COLUMN: error: message (generation 4, with the "
                    + "file's last good text, is still served), and one per entry a save that parses leaves out: "
                    + "FILE:LINE:COLUMN: warning: message (--format json: {\"warning\": \"left_out\", generation, "
                    + "file, line, column, message}). When l10nd goes away (a restart, "
                    + "a crash) watch says so on stderr and reconnects, waiting 0.1 s, then twice as long each "
                    + "time up to 5 s, and says when it is back: changes made in between are not replayed. A "
                    + "daemon at its connection limit is retried the same way, from the first connection on. "
                    + "SIGINT (Ctrl-C) and SIGTERM end it. --timeout bounds the wait for l10nd's first answer; "
                    + "changes are waited for without a limit."
            ],
            globals: [.socket, .timeout]),
        CommandDescription(
            name: "missing", arguments: "",
            summary: "keys each language lacked when asked (also as a .strings or .po skeleton)",
            paragraphs: [
                "Lists the keys users of each language asked for and that language lacked, with how often "
                    + "and what they saw instead: language, table, key, count and the language whose string "
                    + "answered (a fallback: Base, the development language, a later preference), or - when no "
                    + "language had the key, tab-separated. --format strings (or po) --lang ja prints a .strings "
                    + "(or gettext .po) skeleton of them for a translator to fill in; --lang ja takes the "
                    + "lookups asked in ja-JP too.",
                "With the resource files (directories given, else the daemon's roots), a key the language has "
                    + "translated since is left out, the .strings skeleton gives each key its source text "
                    + "(a plural key, which .strings cannot hold, is named on stderr and the exit status is 1), "
                    + "and the .po skeleton writes the keys as export does (plural keys as plural messages, String "
                    + "Catalog keys by their ids), which l10nctl import places as they are.",
            ],
            options: [
                HelpEntry(
                    "--lang TAG",
                    "Only this language's keys. One l10nd does not serve is an error listing those it serves, "
                        + "unless lookups asked for it (then a warning)."),
                HelpEntry(
                    "--table NAME",
                    "Only this table's keys. One l10nd does not serve is an error listing its tables, unless "
                        + "lookups asked for it (then a warning); a path (a /) is a usage error."),
            ],
            valueOptions: ["lang", "table"], globals: [.socket, .resources, .developmentLanguage, .timeout],
            formats: ["text", "json", "strings", "po"]),
        CommandDescription(
            name: "reset", arguments: "",
            summary: "empty l10nd's missing-key report, printing what it held (counters stay)",
            paragraphs: [
                "Empties l10nd's missing-key report and prints what it held, in one step, so a monitor that "
                    + "reads and resets loses nothing noted in between. The counters are not reset: they count "
                    + "since l10nd started, so the rates a scraper computes from 'l10nctl metrics' stay right. "
                    + "Only root and l10nd's own user may reset; anyone else gets a 'forbidden' error."
            ],
            globals: [.socket, .timeout]),
        CommandDescription(
            name: "metrics", arguments: "", summary: "l10nd's counters and latency histograms as Prometheus text",
            paragraphs: [
                "Prints l10nd's metrics in Prometheus' text format, ending in '# EOF': lookups by found, "
                    + "requests, request and reload latency histograms, languages, keys, watches, rescans, "
                    + "connections, dropped log lines, and whether l10nd is degraded. Counters only grow. For "
                    + "node_exporter's textfile collector: l10nctl metrics > DIR/l10nd.prom.tmp && mv "
                    + "DIR/l10nd.prom.tmp DIR/l10nd.prom. --format json prints the protocol's reply: "
                    + "{\"content_type\":…,\"metrics\":…}."
            ],
            globals: [.socket, .timeout]),
        CommandDescription(
            name: "languages", arguments: "", summary: "the languages and tables l10nd serves",
            paragraphs: ["Lists the languages l10nd serves, each with its tables."], globals: [.socket, .timeout]),
        CommandDescription(
            name: "socket-path", arguments: "", summary: "print the socket path the other commands use",
            paragraphs: [
                "Prints the socket the commands that talk to l10nd would use: --socket, else L10N_SOCKET, else "
                    + "the per-user socket if it exists ($XDG_RUNTIME_DIR/l10nd/l10nd.sock, else "
                    + "/tmp/l10nd-$UID/l10nd.sock: where l10nd started by the user listens), else the system "
                    + "service's /run/l10nd/l10nd.sock. For scripts: socat - UNIX-CONNECT:\"$(l10nctl socket-path)\"."
            ],
            globals: [.socket]),
        CommandDescription(
            name: "help", arguments: "[COMMAND]", summary: "show this help, or a command's",
            paragraphs: [
                "Shows the overview, or COMMAND's help. --format man prints l10nctl(1), the manual page made "
                    + "from the same text."
            ],
            formats: ["text", "man"]),
    ]

    /// The command named `name`, if there is one.
    static func command(_ name: String) -> CommandDescription? { all.first { $0.name == name } }

    /// Why `name` is not a command, and what to type instead.
    static func unknown(_ name: String) -> UsageError {
        let names = all.map(\.name)
        return UsageError(
            Suggestion.unknown("command", name, among: names) + "; the commands are \(names.joined(separator: ", ")) "
                + "(see 'l10nctl help')")
    }
}
