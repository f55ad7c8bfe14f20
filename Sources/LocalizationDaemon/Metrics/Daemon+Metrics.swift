import LocalizationSockets
import Synchronization

extension Daemon {
    /// The watcher's, the server's and the process's metric families.
    func metricFamilies() -> [MetricFamily] {
        let (watcher, server) = startedParts.withLock { ($0.watcher, $0.server) }
        let problems = problems()
        var families: [MetricFamily] = [
            MetricFamily(
                name: "l10nd_build_info", help: "The daemon's version (always 1).", kind: .gauge,
                samples: [MetricFamily.Sample(labels: [MetricFamily.Label("version", DaemonVersion.string)], value: 1)]),
            .gauge(
                "l10nd_start_time_seconds", "When the daemon started, seconds since the Unix epoch.",
                value: startedAtWallClock),
            .gauge(
                "l10nd_degraded", "1 while a resource root is missing or no language is served (status says which).",
                value: problems.isEmpty ? 0 : 1),
            .counter(
                "l10nd_log_lines_dropped_total", "Log lines stderr refused (journald gone, disk full).",
                value: logger.droppedLines),
        ]
        if let statistics = watcher?.statistics {
            families += [
                .gauge("l10nd_watches", "Directories watched with inotify.", value: Double(statistics.watchCount)),
                .gauge(
                    "l10nd_missing_roots", "Resource roots that do not exist now.",
                    value: Double(statistics.absentRoots.count)),
                .counter("l10nd_watch_events_total", "inotify events received.", value: statistics.events),
                .counter("l10nd_watch_batches_total", "Settled batches of file events.", value: statistics.batches),
                .counter(
                    "l10nd_watch_overflows_total", "inotify queue overflows (each forces a rescan).",
                    value: statistics.overflows),
            ]
        }
        if let statistics = server?.statistics {
            families += [
                .counter(
                    "l10nd_requests_total", "Requests received, well-formed or not.", value: statistics.requests),
                .counter("l10nd_request_errors_total", "Error replies sent.", value: statistics.errors),
                .counter(
                    "l10nd_requests_timed_out_total", "Connections closed because a request arrived too slowly.",
                    value: statistics.requestsTimedOut),
                .gauge("l10nd_connections", "Connections open now.", value: Double(statistics.connectionsCurrent)),
                .counter(
                    "l10nd_connections_accepted_total", "Connections accepted.", value: statistics.connectionsAccepted),
                .counter(
                    "l10nd_connections_refused_total", "Connections refused because max_connections were open.",
                    value: statistics.connectionsRefused),
                .counter(
                    "l10nd_connections_cut_off_total", "Connections closed with replies left unread.",
                    value: statistics.connectionsCutOff),
                .counter(
                    "l10nd_connections_timed_out_total", "Connections closed for staying idle.",
                    value: statistics.connectionsTimedOut),
                .counter(
                    "l10nd_accept_pauses_total", "Times accepting paused because descriptors ran out.",
                    value: statistics.acceptPauses),
                .gauge(
                    "l10nd_subscribers", "Connections subscribed to change events.",
                    value: Double(statistics.subscribers)),
                .counter("l10nd_events_broadcast_total", "Change events broadcast.", value: statistics.eventsBroadcast),
            ]
        }
        if let polling = server?.readiness?.pollingStatistics {
            families += [
                .counter(
                    "l10nd_polling_idle_total", "Times the socket thread ran out of work.",
                    value: polling.idleStretches),
                .counter(
                    "l10nd_polling_looks_total",
                    "Idle stretches in which the socket thread looked for input before sleeping.",
                    value: polling.looks),
                .counter(
                    "l10nd_polling_caught_total", "Looks that found input (a wake-up saved).", value: polling.caught),
                .counter(
                    "l10nd_polling_sleeps_total", "Idle stretches in which the socket thread slept.",
                    value: polling.sleeps),
                .counter(
                    "l10nd_polling_shared_core_total",
                    "Looks cut short because another thread ran on the core (looking then pauses).",
                    value: polling.sharedCore),
                .counter(
                    "l10nd_polling_lost_core_total",
                    "Times a look lost the core with no other thread running on it (hypervisor, interrupt).",
                    value: polling.lostCore),
                .counter(
                    "l10nd_polling_held_total", "Times input came back soon while looking was paused.",
                    value: polling.held),
            ]
        }
        let socket = socketFileState
        families.append(
            .counter(
                "l10nd_socket_recreated_total", "Times the removed socket file was bound again.",
                value: socket.recreated))
        return families
    }
}
