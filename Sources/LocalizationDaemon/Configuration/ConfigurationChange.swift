/// What a reload found changed in the configuration, and what of it takes effect.
///
/// Most keys take effect at once (``ConfigurationKey/appliesOnReload``); the socket and its
/// group are bound at start, so a new value for them is named as waiting for a restart and
/// the running one stays in ``effective``, as nginx and sshd do.
///
/// ```swift
/// let change = ConfigurationChange(from: running, to: reread)
/// daemon.use(change.effective)   // change.waitingForRestart names the rest
/// ```
package struct ConfigurationChange: Sendable, Hashable {
    /// One key whose value differs.
    package struct Difference: Sendable, Hashable {
        /// The `l10nd.conf` key.
        package var key: String
        /// The value before the reload.
        package var old: String
        /// The value the file (or a flag) gives now.
        package var new: String

        /// `key: old → new`.
        package var description: String { "\(key) \(new) (was \(old))" }
    }

    /// Keys whose new value is in effect from this reload on.
    package var applied: [Difference]
    /// Keys whose new value waits for a restart; their running value is kept.
    package var waitingForRestart: [Difference]
    /// The configuration to run with: the new one, with what waits for a restart kept.
    package var effective: DaemonConfiguration

    /// Compares `running` (what the daemon runs with) with `reread` (the file read again,
    /// the command line's flags on top). `metricsBound` is where the metrics endpoint
    /// listens in fact (port 0 made concrete): the running value a waiting change names.
    package init(
        from running: DaemonConfiguration, to reread: DaemonConfiguration, metricsBound: MetricsAddress? = nil
    ) {
        applied = []
        waitingForRestart = []
        effective = reread
        for key in ConfigurationKey.allCases {
            var old = key.value(in: running)
            let new = key.value(in: reread)
            guard old != new else { continue }
            if key == .metricsListen, let metricsBound { old = metricsBound.description }
            let difference = Difference(key: key.rawValue, old: old, new: new)
            if key.appliesOnReload {
                applied.append(difference)
            } else {
                waitingForRestart.append(difference)
            }
        }
        // Bound at start: what the daemon listens on and names in `status` stays as it is.
        effective.socketPath = running.socketPath
        effective.socketGroup = running.socketGroup
        // As configured, not as bound: a reload of the same `127.0.0.1:0` is no change.
        effective.metricsListen = running.metricsListen
    }

    /// Whether any key changed.
    package var isEmpty: Bool { applied.isEmpty && waitingForRestart.isEmpty }
}
