import LocalizationSockets
import Synchronization

extension Daemon {
    /// Starts `metrics_listen`'s HTTP endpoint, if configured, serving `service`'s metrics
    /// text (the one `l10nctl metrics` prints) and this daemon's health.
    ///
    /// - Throws: ``SocketError`` naming the address when it cannot be bound.
    func startMetricsEndpoint(service: LookupService) throws {
        guard let address = configuration.metricsListen else { return }
        let endpoint = try MetricsHTTPServer(
            address: address,
            answers: MetricsHTTPServer.Answers(
                metrics: { [weak service] in service?.metricsText() ?? "# EOF\n" },
                notReady: { [weak self] in
                    guard let self else { return "stopping" }
                    return notReadyReason()
                }))
        startedParts.withLock { $0.metricsEndpoint = endpoint }
        logger.notice("metrics and health over HTTP at \(endpoint.url) (/healthz, /readyz)")
    }

    /// Stops the HTTP endpoint, if running; once.
    func stopMetricsEndpoint() {
        let endpoint = startedParts.withLock { parts in
            defer { parts.metricsEndpoint = nil }
            return parts.metricsEndpoint
        }
        endpoint?.stop()
    }

    /// Why `/readyz` answers 503, or nil when ready: the tables are loaded and served (the
    /// daemon is running) and the socket file clients connect to is in place, as `status`'s
    /// `socket.in_place` says (an inherited socket is systemd's, always in place). A degraded
    /// daemon (a root missing, no language) is still ready: it answers, and restarting it
    /// would not bring a root back; `l10nd_degraded` and `status` say it.
    func notReadyReason() -> String? {
        switch currentPhase {
        case .starting: return "starting: the tables are not loaded yet"
        case .stopping, .stopped: return "stopping"
        case .running: break
        }
        guard let listener = startedParts.withLock({ $0.listener }) else { return "no socket" }
        if !listener.isAdopted, !listener.isFileInPlace {
            return "the socket file \(configuration.socketPath) is not in place (it is re-created within seconds)"
        }
        return nil
    }
}
