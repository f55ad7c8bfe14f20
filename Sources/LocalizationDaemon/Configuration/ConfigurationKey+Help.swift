import CommandLineHelp

extension ConfigurationKey {
    /// The key as `l10nd.conf(5)` lists it, with the value it takes.
    var helpTerm: String {
        let value =
            switch self {
            case .resources: "DIR"
            case .socket: "PATH"
            case .developmentLanguage: "TAG"
            case .logLevel: "LEVEL"
            case .socketGroup: "GROUP"
            case .allowSymlinksOutsideRoots: "BOOL"
            case .metricsListen: "ADDRESS"
            case .settleMilliseconds, .maxMessageBytes, .maxConnections, .idleTimeoutSeconds, .maxOutputBufferBytes,
                .requestTimeoutSeconds, .maxFileBytes:
                "N"
            }
        return "\(rawValue) = \(value)"
    }

    /// What the key does, its range and its default: `l10nd.conf(5)`'s entry for it.
    var helpText: String {
        switch self {
        case .resources:
            "A directory holding xx.lproj/*.strings|*.stringsdict and *.xcstrings, watched recursively; new "
                + "languages appear live. Repeat the key for more directories; earlier ones win. The package's "
                + "file names /var/lib/l10nd/resources."
        case .socket:
            "Where to listen when not started by systemd's l10nd.socket (which passes /run/l10nd/l10nd.sock). "
                + "Default: $XDG_RUNTIME_DIR/l10nd/l10nd.sock, else /tmp/l10nd-$UID/l10nd.sock "
                + "('l10nctl socket-path' prints the path a client uses)."
        case .developmentLanguage:
            "The last language of every fallback chain, as a BCP 47 tag (en, pt-BR, zh-Hant-TW; not english, "
                + "ja_JP or Base). Default: en."
        case .logLevel: "debug, info, notice, warning or error. Default: info."
        case .settleMilliseconds:
            "Milliseconds the resource directories must be quiet before a reload (0 to 10000): editors save in "
                + "bursts, one reload per burst. Default: 20."
        case .maxMessageBytes:
            "The largest request line or binary frame accepted (1024 to 67108864); a longer request gets "
                + "too_large and its connection is closed. Default: 1048576."
        case .maxConnections:
            "Clients served at once (1 to 65536); more get unavailable (the daemon is at its connection "
                + "limit) and are closed, and the log says so once per burst. Default: 1024."
        case .idleTimeoutSeconds:
            "A client silent this long is disconnected (0 to 86400; 0: never). Silent: no whole request "
                + "arrives and no reply goes out. Subscribers, clients waiting for a reply and clients reading "
                + "their replies, however slowly, are never idle. "
                + "Default: 300."
        case .requestTimeoutSeconds:
            "How long one request may take to arrive, from its first byte to its last (1 to 3600); a client "
                + "still sending a partial request after this long is disconnected. Default: 10."
        case .maxOutputBufferBytes:
            "Unsent replies past which a client's next requests wait, unread, until it reads (4096 to "
                + "1073741824): flow control, not a cut-off; a subscriber leaving more change events unread is "
                + "disconnected. Default: 4194304."
        case .maxFileBytes:
            "The largest resource file parsed (4096 to 4294967296); a larger one is an error in status and "
                + "keeps its last good table. Default: 134217728."
        case .socketGroup:
            "The group given the socket the daemon creates itself (mode 0660: its owner and this group may "
                + "connect). Default: the daemon's primary group. Under systemd the socket unit sets it instead "
                + "(SocketGroup=l10n)."
        case .allowSymlinksOutsideRoots:
            "true or false: whether a symbolic link under a resource directory may lead outside every resource "
                + "directory. Default: false."
        case .metricsListen:
            "Serve GET /metrics (the text 'l10nctl metrics' prints, Prometheus' format), /healthz and /readyz "
                + "over HTTP at 127.0.0.1:PORT, [::1]:PORT or an absolute Unix socket path; port 0 lets the "
                + "kernel choose (the log names it). Bound at start: a change waits for a restart. /readyz answers "
                + "503 until the tables are loaded, and while the socket file is not in place. Default: off."
        }
    }
}
