package import CommandLineHelp

/// `l10nd`'s help as data: `l10nd --help` prints ``page`` as text, the package's manual
/// pages `l10nd(8)` and `l10nd.conf(5)` are ``page`` and ``configurationPage`` in roff
/// (`l10nd --man l10nd`, `l10nd --man l10nd.conf`).
package enum DaemonHelp {
    /// The paths the package installs, named in both pages.
    static let files = HelpSection(
        "FILES",
        entries: [
            HelpEntry("/etc/l10nd/l10nd.conf", "The configuration the systemd unit passes with --config."),
            HelpEntry(
                "/var/lib/l10nd/resources",
                "The resource directory the package's configuration names; put xx.lproj directories and "
                    + ".xcstrings files here. Examples: /usr/share/doc/l10nd/examples/Resources."),
            HelpEntry(
                "/run/l10nd/l10nd.sock",
                "The socket of the systemd units: mode 0660, group l10n (the package creates the group; add "
                    + "users with 'adduser USER l10n')."),
            HelpEntry("/usr/share/doc/l10nd", "README.md, INSTALL.md, DAEMON.md, PROTOCOL.md and the other guides."),
        ])

    /// `l10nd(8)`: what `l10nd --help` prints.
    package static let page = HelpPage(
        name: "l10nd", section: 8, summary: "serve localized strings over a Unix socket and hot-reload them",
        synopsis: [
            "l10nd [--config FILE] [--resources DIR]... [--socket PATH]",
            "      [--development-language TAG] [--log-level LEVEL] [--settle-ms N]",
            "      [--metrics-listen ADDRESS] [--strict]",
            "l10nd --check-config [--config FILE] [--strict] [flags]",
            "l10nd --help | --version | --man l10nd|l10nd.conf",
        ],
        sections: [
            HelpSection(
                "DESCRIPTION",
                paragraphs: [
                    "Serves localized strings from .lproj directories and String Catalogs over a Unix socket, "
                        + "reloading them as files change. Clients are the Localization library and l10nctl(1).",
                    "Flags override the configuration file (l10nd.conf(5)); --resources given at least once "
                        + "replaces the file's list. No file is read unless --config names one.",
                    "SIGHUP and 'l10nctl reload' read the configuration file again (the flags still override "
                        + "it): resources, development_language, log_level, the limits and timeouts change in "
                        + "place; socket, socket_group and metrics_listen wait for a restart, which the log and the "
                        + "reply say. "
                        + "A file that cannot be read or parsed keeps the running configuration, with the reason "
                        + "in the log, the reply and 'l10nctl status'.",
                ]),
            HelpSection(
                "OPTIONS",
                entries: [
                    HelpEntry("--config FILE", "Read settings from FILE (key = value; see l10nd.conf(5))."),
                    HelpEntry("--resources DIR", "A resource directory; repeat for more. Replaces the file's list."),
                    HelpEntry(
                        "--socket PATH",
                        "Listen on PATH (default $XDG_RUNTIME_DIR/l10nd/l10nd.sock, else /tmp/l10nd-$UID/l10nd.sock)."),
                    HelpEntry("--development-language TAG", "The last fallback language (default en)."),
                    HelpEntry("--log-level LEVEL", "debug, info, notice, warning or error (default info)."),
                    HelpEntry("--settle-ms N", "Quiet time before a reload, in milliseconds (default 20)."),
                    HelpEntry(
                        "--metrics-listen ADDRESS",
                        "Serve /metrics, /healthz and /readyz over HTTP at ADDRESS: an IP literal and port "
                            + "(127.0.0.1:9464, [::1]:9464, 0.0.0.0:9464 for a Kubernetes probe) or an absolute Unix "
                            + "socket path (default: off; metrics_listen in l10nd.conf(5))."),
                    HelpEntry(
                        "--check-config",
                        "Read the configuration and every resource directory once, print what would be served "
                            + "and every problem and warning (a folder skipped for its name, such as de_DE-typo.lproj, "
                            + "is one), and exit: 0 when there is none, 1 otherwise. Binds nothing: safe beside a "
                            + "running daemon."),
                    HelpEntry(
                        "--strict",
                        "A warning about the configuration (a development_language CLDR does not know, that no "
                            + "resource directory serves, or that contradicts a String Catalog's sourceLanguage) "
                            + "stops start-up (exit 2), and a reload to a language CLDR does not know is refused."),
                    HelpEntry("-h, --help", "Show this help."),
                    HelpEntry("--version", "Show the version."),
                    HelpEntry("--man PAGE", "Print the manual page l10nd or l10nd.conf in roff."),
                ]),
            HelpSection(
                "SIGNALS",
                entries: [
                    HelpEntry(
                        "SIGHUP",
                        "Read the configuration file again and rescan every resource directory (as 'l10nctl reload')."),
                    HelpEntry(
                        "SIGTERM, SIGINT",
                        "Stop accepting, answer what is owed (at most 5 s), remove the socket file, exit 0."),
                ]),
            HelpSection(
                "EXIT STATUS",
                entries: [
                    HelpEntry("0", "A clean stop."),
                    HelpEntry(
                        "1",
                        "Start-up failed (the socket is taken, inotify is unavailable); --check-config found a "
                            + "problem or a warning."),
                    HelpEntry(
                        "2",
                        "A bad flag or a bad configuration file (every mistake in the file is said, one FILE:LINE: "
                            + "line each); with --strict, a configuration warning."),
                ]),
            files,
            HelpSection("SEE ALSO", paragraphs: ["l10nctl(1), l10nd.conf(5), systemd.socket(5)"]),
        ])

    /// `l10nd.conf(5)`: one entry per configuration key.
    package static let configurationPage = HelpPage(
        name: "l10nd.conf", section: 5, summary: "l10nd configuration file",
        synopsis: ["/etc/l10nd/l10nd.conf"],
        sections: [
            HelpSection(
                "DESCRIPTION",
                paragraphs: [
                    "One key = value per line. A line starting with # is a comment; a # later in a line is "
                        + "part of the value. A value may be wrapped in double quotes to keep leading or trailing "
                        + "blanks. resources may repeat; every other key may appear once. Relative paths are taken "
                        + "from the file's directory. Command-line flags (l10nd(8)) override these values. A "
                        + "mistake stops l10nd with file:line: message and exit status 2.",
                    "SIGHUP and 'l10nctl reload' read the file again: every key but socket, socket_group and "
                        + "metrics_listen takes effect at once (limits and timeouts for the connections accepted "
                        + "after); those three "
                        + "wait for a restart. A mistake at a reload keeps the running configuration and is "
                        + "reported (log, reply, status). 'l10nd --check-config --config FILE' checks a file first.",
                ]),
            HelpSection("KEYS", entries: ConfigurationKey.allCases.map { HelpEntry($0.helpTerm, $0.helpText) }),
            files,
            HelpSection("SEE ALSO", paragraphs: ["l10nd(8), l10nctl(1)"]),
        ])

    /// The pages `--man` prints, by name.
    package static let manualPages: [String: HelpPage] = ["l10nd": page, "l10nd.conf": configurationPage]
}
