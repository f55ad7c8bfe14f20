import Foundation
import Glibc
import TestSupport
import Testing

/// `l10nctl metrics` and `reset` against a real `l10nd`: counters that never go back, histograms
/// that count, and text that Prometheus' own checker accepts.
@Suite struct MetricsEndToEndTests {
    static let promtool = "/usr/bin/promtool"
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String], socket: String) throws -> ProcessOutput {
        try ProcessRunner.run(l10nctl, arguments + ["--socket", socket], environment: ["PATH": "/usr/bin:/bin"])
    }

    func scrape(_ daemon: DaemonProcess) throws -> (text: String, metrics: MetricsExposition) {
        let result = try run(["metrics"], socket: daemon.socketPath)
        #expect(result.status == 0, "\(result.stderr)")
        return (result.stdout, try MetricsExposition(result.stdout))
    }

    @Test func countersSurviveResetWhichEmptiesOnlyTheMissingKeyReport() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        for key in ["多言語化", "nowhere", "nowhere"] {
            _ = try client.request(["op": "lookup", "key": key, "lang": "ja"])
        }
        let before = try scrape(daemon).metrics
        let reset = try run(["reset"], socket: daemon.socketPath)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("emptied the missing-key report: it held 1 key, 0 dropped"), "\(reset.stdout)")
        #expect(reset.stdout.contains("counters are not reset"), "\(reset.stdout)")
        let counters = try #require(try daemon.request(["op": "status"])["counters"] as? [String: Any])
        #expect(counters["lookups"] as? Int == 3 && counters["misses"] as? Int == 2, "\(counters)")
        let after = try scrape(daemon).metrics
        #expect(after[#"l10nd_lookups_total{found="true"}"#] == 1)
        #expect(after[#"l10nd_lookups_total{found="false"}"#] == 2)
        #expect(after["l10nd_rescans_total"] == before["l10nd_rescans_total"])
        #expect(after["l10nd_missing_keys"] == 0 && before["l10nd_missing_keys"] == 1)
        #expect(try run(["missing"], socket: daemon.socketPath).stdout.isEmpty)
    }

    /// Two scrapes with lookups, a reload and a reset between: every family is declared with
    /// help and type, every counter and histogram series only grows, and the histograms
    /// count the requests and the reload.
    @Test func scrapesAreWellFormedAndOnlyGrow() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let first = try scrape(daemon).metrics
        for name in [
            "l10nd_requests_total", "l10nd_lookups_total", "l10nd_rescans_total", "l10nd_log_lines_dropped_total",
        ] {
            #expect(first.types[name] == "counter", "\(name): \(first.types)")
        }
        for name in ["l10nd_languages", "l10nd_watches", "l10nd_degraded", "l10nd_connections"] {
            #expect(first.types[name] == "gauge", "\(name)")
        }
        #expect(first.types["l10nd_request_duration_seconds"] == "histogram")
        #expect(first.types["l10nd_reload_duration_seconds"] == "histogram")
        #expect(first["l10nd_languages"] ?? 0 > 0 && first["l10nd_watches"] ?? 0 > 0)
        #expect(first["l10nd_degraded"] == 0)

        let client = try daemon.connect()
        for index in 0..<25 {
            _ = try client.request(["op": "lookup", "key": index % 5 == 0 ? "nowhere" : "多言語化", "lang": "de"])
        }
        #expect(try run(["reload"], socket: daemon.socketPath).status == 0)
        #expect(try run(["reset"], socket: daemon.socketPath).status == 0)
        let second = try scrape(daemon).metrics

        #expect(
            second[#"l10nd_request_duration_seconds_count{op="lookup"}"#]
                == (first[#"l10nd_request_duration_seconds_count{op="lookup"}"#] ?? -1) + 25)
        #expect(
            second[#"l10nd_request_duration_seconds_bucket{op="lookup",le="+Inf"}"#]
                == second[#"l10nd_request_duration_seconds_count{op="lookup"}"#])
        #expect(
            second[#"l10nd_lookups_total{found="false"}"#] == (first[#"l10nd_lookups_total{found="false"}"#] ?? -1) + 5)
        #expect(
            second[#"l10nd_lookups_total{found="true"}"#] == (first[#"l10nd_lookups_total{found="true"}"#] ?? -1) + 20)
        #expect(
            second["l10nd_reload_duration_seconds_count"] ?? 0 >= (first["l10nd_reload_duration_seconds_count"] ?? 0)
                + 1)
        #expect(second["l10nd_rescans_total"] ?? 0 > first["l10nd_rescans_total"] ?? 0)
        #expect(second["l10nd_requests_total"] ?? 0 >= (first["l10nd_requests_total"] ?? 0) + 25)

        for (series, value) in first.samples {
            let name = String(series.prefix { $0 != "{" })
            guard let family = MetricsExposition.family(of: name, in: first.types),
                first.types[family] == "counter" || first.types[family] == "histogram"
            else { continue }
            let later = try #require(second[series], "\(series) is gone from the second scrape")
            #expect(later >= value, "\(series) went from \(value) to \(later)")
        }
        // Buckets are cumulative: each bound counts at least what the one below it does.
        let bounds = second.samples.keys.filter { $0.hasPrefix(#"l10nd_request_duration_seconds_bucket{op="lookup","#) }
        let counts = bounds.compactMap { series -> (Double, Double)? in
            guard let start = series.range(of: #"le=""#)?.upperBound, let end = series[start...].firstIndex(of: "\"")
            else { return nil }
            let bound = series[start..<end] == "+Inf" ? Double.infinity : Double(series[start..<end]) ?? .nan
            return (bound, second[series] ?? -1)
        }.sorted { $0.0 < $1.0 }
        #expect(counts.count == 20 && zip(counts, counts.dropFirst()).allSatisfy { $0.1 <= $1.1 }, "\(counts)")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: promtool),
            "promtool is not installed: apt-get install prometheus (or scripts/install-dependencies prometheus)"))
    func promtoolAcceptsTheMetrics() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources, "/nonexistent-l10nd-root"])
        _ = try daemon.request(["op": "lookup", "key": "多言語化", "lang": "ja"])
        let text = try scrape(daemon).text
        let check = try ProcessRunner.run(Self.promtool, ["check", "metrics"], stdin: text)
        #expect(check.status == 0, "promtool: \(check.stdout)\(check.stderr)\n\(text)")
    }

    /// An operator saw one `reload` move `l10nd_rescans_total` by 2 and one SIGHUP by 2 (the
    /// reload's own rescan and the watcher's batch for it, read a second time), and a SIGHUP
    /// add 3 to the reload durations: each manual rescan is one rescan, timed once.
    @Test func eachManualRescanIsCountedAndTimedOnce() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources], arguments: ["--log-level", "info"])
        func rescanLines() -> Int { daemon.log.components(separatedBy: "full rescan: ").count - 1 }
        let start = try scrape(daemon).metrics
        #expect(try run(["reload"], socket: daemon.socketPath).status == 0)
        // The watcher's batch for the reload is logged once it has been seen to.
        #expect(eventually(10) { rescanLines() == 1 }, "\(daemon.log)")
        usleep(300_000)
        let reloaded = try scrape(daemon).metrics
        #expect(reloaded["l10nd_rescans_total"] == (start["l10nd_rescans_total"] ?? -1) + 1)
        #expect(
            reloaded["l10nd_reload_duration_seconds_count"] == (start["l10nd_reload_duration_seconds_count"] ?? -1) + 1)
        daemon.send(signal: SIGHUP)
        #expect(eventually(10) { rescanLines() == 2 }, "\(daemon.log)")
        usleep(300_000)
        let signalled = try scrape(daemon).metrics
        #expect(signalled["l10nd_rescans_total"] == (start["l10nd_rescans_total"] ?? -1) + 2)
        #expect(
            signalled["l10nd_reload_duration_seconds_count"]
                == (start["l10nd_reload_duration_seconds_count"] ?? -1) + 2)
        let counters = try #require(try daemon.request(["op": "status"])["counters"] as? [String: Any])
        #expect((counters["rescans"] as? Int).map(Double.init) == signalled["l10nd_rescans_total"], "\(counters)")
    }

    @Test func metricsWithoutADaemonIsAClearFailure() throws {
        let result = try run(["metrics"], socket: "/tmp/l10nd-no-such-dir/none.sock")
        #expect(result.status == 1)
        #expect(result.stderr.contains("/tmp/l10nd-no-such-dir/none.sock"), "\(result.stderr)")
    }
}
