import LocalizationCore
import LocalizationWire

extension LookupService {
    /// The `metrics` reply's text: the lookup engine's families, then the daemon's
    /// (``Actions/metrics``).
    func metricsText() -> String {
        OpenMetricsText.render(metricFamilies() + actions.metrics())
    }

    /// What the lookup engine knows: lookups, reloads, the tables served, the missing-key
    /// report and the latency histograms. Counters only ever grow (`reset` leaves them).
    func metricFamilies() -> [MetricFamily] {
        // Misses first: a found lookup counted meanwhile only makes the later read larger.
        let misses = counters.value(.misses)
        let found = counters.value(.found)
        let snapshot = store.snapshot
        let operations = WireOperationKind.allCases.filter { $0 != .subscribe }
        return [
            MetricFamily(
                name: "l10nd_lookups_total", help: "Keys looked up (each key of a batch counts), by whether found.",
                kind: .counter,
                samples: [
                    MetricFamily.Sample(labels: [MetricFamily.Label("found", "true")], value: Double(found)),
                    MetricFamily.Sample(labels: [MetricFamily.Label("found", "false")], value: Double(misses)),
                ]),
            .counter(
                "l10nd_unknown_table_lookups_total",
                "Keys looked up in a table no language has (a mistaken table name; not in the missing-key report).",
                value: counters.value(.unknownTables)),
            .counter(
                "l10nd_reloads_total", "Refreshes that changed at least one table.", value: counters.value(.reloads)),
            .counter(
                "l10nd_rescans_total", "Full rescans (start, reload, SIGHUP, queue overflow).",
                value: counters.value(.rescans)),
            .counter(
                "l10nd_files_parsed_total", "Resource files parsed because their bytes changed.",
                value: counters.value(.filesParsed)),
            .gauge("l10nd_generation", "The generation of the tables served.", value: Double(snapshot.generation)),
            .gauge("l10nd_languages", "Languages served.", value: Double(snapshot.segments.languages.count)),
            .gauge(
                "l10nd_tables", "Tables served, over every language.",
                value: Double(snapshot.segments.tableCount)),
            .gauge("l10nd_keys", "Distinct keys served.", value: Double(snapshot.segments.keyCount)),
            .gauge("l10nd_files", "Resource files read.", value: Double(snapshot.fileCount)),
            .gauge(
                "l10nd_resource_errors", "Files or entries left out because they do not parse or cannot be read.",
                value: Double(snapshot.errors.count)),
            .gauge(
                "l10nd_missing_keys", "Distinct keys in the missing-key report (reset empties it).",
                value: Double(missing.entries.count)),
            .gauge(
                "l10nd_missing_keys_dropped", "Misses not kept because the missing-key report was full.",
                value: Double(missing.droppedEntries)),
            .histogram(
                "l10nd_request_duration_seconds",
                "Time from a request's decoding to its reply being handed to the connection, by op.",
                series: operations.map { ([MetricFamily.Label("op", $0.name)], counters.requestDurations($0).snapshot) }
            ),
            .histogram(
                "l10nd_reload_duration_seconds", "Time to apply one batch of file changes or one full rescan.",
                series: [([], counters.reloadDurations.snapshot)]),
        ]
    }
}
