import Foundation
import LocalizationWire

/// `l10nctl metrics`: l10nd's counters, gauges and latency histograms as Prometheus text
/// (the `metrics` op), printed as the daemon wrote it, for node_exporter's textfile
/// collector or any scraper (docs/DAEMON.md, "Metrics").
enum MetricsCommand {
    static func run(_ invocation: Invocation) throws {
        guard let reply = try DaemonCommands.fieldsForText(.metrics, invocation) else { return }
        guard let text = reply["metrics"]?.stringValue else {
            throw CommandFailure("l10nd sent no metrics: it predates protocol 1.4 (l10nctl status shows its counters)")
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
