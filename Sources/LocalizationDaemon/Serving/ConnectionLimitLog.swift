/// What the log says about clients refused at `max_connections`: one line when refusing
/// starts and one when it has stopped, per burst, not one per refused client (a client
/// retrying in a loop would otherwise fill the journal with the same line).
///
/// Fed the server's `connections_refused` counter once per ``checkInterval``: a check that
/// finds it grown starts a burst (or continues one); the first check that finds it unchanged
/// ends it.
///
/// ```swift
/// var log = ConnectionLimitLog(limit: 1024)
/// log.check(refusedTotal: 3)   // (.warning, "at the connection limit (max_connections = 1024): …")
/// log.check(refusedTotal: 9)   // nil: the same burst
/// log.check(refusedTotal: 9)   // (.notice, "below the connection limit again: 9 clients were refused …")
/// ```
struct ConnectionLimitLog: Sendable {
    /// How often the daemon feeds the counter, in seconds.
    static let checkInterval = Duration.seconds(1)

    /// `max_connections`, as the lines name it; a configuration reload may change it.
    var limit: Int
    /// The counter when the last check ran.
    private var lastTotal = 0
    /// The counter when the burst in progress started; nil when none is.
    private var burstStart: Int?

    init(limit: Int) {
        self.limit = limit
    }

    /// The line to log for the refusals counted so far, if any.
    mutating func check(refusedTotal: Int) -> (level: LogLevel, message: String)? {
        defer { lastTotal = refusedTotal }
        if refusedTotal > lastTotal {
            guard burstStart == nil else { return nil }
            burstStart = lastTotal
            return (
                .warning,
                "at the connection limit (max_connections = \(limit)): refusing new clients until some leave"
            )
        }
        guard let start = burstStart else { return nil }
        burstStart = nil
        let refused = refusedTotal - start
        return (
            .notice,
            "below the connection limit again: \(refused) client\(refused == 1 ? " was" : "s were") refused (max_connections = \(limit))"
        )
    }
}
