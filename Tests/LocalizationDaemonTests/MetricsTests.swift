import Foundation
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import Synchronization
import TestSupport
import Testing

/// The `metrics` op's parts: histograms, the text format, and the lookup engine's families.
@Suite struct MetricsTests {
    @Test func histogramPutsEachObservationInItsBucketAndCountsCumulatively() {
        let histogram = DurationHistogram(bounds: [0.001, 0.01])
        histogram.record(nanoseconds: 1_000_000)  // exactly on the first bound: counted there (le)
        histogram.record(nanoseconds: 5_000_000)
        histogram.record(nanoseconds: 2_000_000_000)  // past every bound: only +Inf
        histogram.record(nanoseconds: -5)  // a clock step backwards counts as zero
        let snapshot = histogram.snapshot
        #expect(snapshot.cumulativeCounts == [2, 3, 4])
        #expect(snapshot.count == 4)
        #expect(abs(snapshot.sumSeconds - 2.006) < 1e-9, "\(snapshot.sumSeconds)")
    }

    @Test func histogramCountsEveryRecordFromManyThreads() {
        let histogram = DurationHistogram(bounds: DurationHistogram.requestBounds)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<10_000 { histogram.record(nanoseconds: (thread * 10_000 + index) * 1_000) }
        }
        #expect(histogram.snapshot.count == 80_000)
    }

    @Test func textHasHelpTypeSamplesAndEOF() {
        let text = OpenMetricsText.render([
            .counter("l10nd_things_total", "Things.\nWith a \\ newline.", value: 3),
            MetricFamily(
                name: "l10nd_info", help: "Info.", kind: .gauge,
                samples: [MetricFamily.Sample(labels: [MetricFamily.Label("v", "a\"b\\c\nd")], value: 1)]),
            .histogram(
                "l10nd_seconds", "Durations.",
                series: [([MetricFamily.Label("op", "lookup")], DurationHistogram(bounds: [0.5]).snapshot)]),
        ])
        #expect(
            text == """
                # HELP l10nd_things_total Things.\\nWith a \\\\ newline.
                # TYPE l10nd_things_total counter
                l10nd_things_total 3
                # HELP l10nd_info Info.
                # TYPE l10nd_info gauge
                l10nd_info{v="a\\"b\\\\c\\nd"} 1
                # HELP l10nd_seconds Durations.
                # TYPE l10nd_seconds histogram
                l10nd_seconds_bucket{op="lookup",le="0.5"} 0
                l10nd_seconds_bucket{op="lookup",le="+Inf"} 0
                l10nd_seconds_sum{op="lookup"} 0
                l10nd_seconds_count{op="lookup"} 0
                # EOF

                """)
    }

    @Test(arguments: [(1.0, "1"), (0.000_01, "1e-05"), (2.5, "2.5"), (Double.infinity, "+Inf"), (-3.0, "-3")])
    func numbersAreSpelledAsPrometheusReadsThem(value: Double, text: String) {
        #expect(OpenMetricsText.number(value) == text)
    }

    /// Lookups show up in `l10nd_lookups_total` by found, and in the lookup histogram; the
    /// `metrics` reply carries the text and its content type.
    @Test func metricsOpCountsLookupsAndTimesThem() throws {
        let root = try TemporaryDirectory()
        try root.write(#""k" = "v";"#, to: "ja.lproj/Localizable.strings")
        let store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
        store.rescan()
        let service = LookupService(
            store: store, missing: MissingKeyReport(), counters: DaemonCounters(),
            actions: LookupService.Actions(
                reload: { done in done(store.rescan()) }, status: { nil },
                metrics: { [.gauge("l10nd_extra", "From the daemon.", value: 7)] }),
            administrators: [0])
        let peer = PeerInfo(pid: 1, uid: 0, gid: 0)
        let replies = Mutex<[WireReply]>([])
        for key in ["k", "k", "absent"] {
            service.handle(
                WireRequest(operation: .lookup(key: key, languages: ["ja"], table: nil)), from: peer
            ) { _ in }
        }
        service.handle(WireRequest(operation: .batch(keys: ["k", "gone"], languages: ["ja"], table: nil)), from: peer) {
            _ in
        }
        service.handle(WireRequest(operation: .metrics), from: peer) { reply in replies.withLock { $0.append(reply) } }
        guard case .fields(let fields)? = replies.withLock({ $0.first }), let text = fields["metrics"]?.stringValue
        else {
            Issue.record("no metrics reply: \(replies.withLock { $0 })")
            return
        }
        #expect(fields["content_type"]?.stringValue?.hasPrefix("text/plain; version=0.0.4") == true)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"l10nd_lookups_total{found="true"} 3"#), "\(text)")
        #expect(lines.contains(#"l10nd_lookups_total{found="false"} 2"#), "\(text)")
        #expect(lines.contains(#"l10nd_request_duration_seconds_count{op="lookup"} 3"#), "\(text)")
        #expect(lines.contains(#"l10nd_request_duration_seconds_count{op="batch"} 1"#), "\(text)")
        #expect(lines.contains("l10nd_languages 1") && lines.contains("l10nd_extra 7"), "\(text)")
        #expect(text.hasSuffix("# EOF\n"))
    }
}
