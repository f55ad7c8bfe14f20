import Foundation
import Localization

/// The client library's figures, each next to its baseline from the same run:
///
/// - mapped mode: ns per `"key".language("ja").localized` from 4 threads, against a plain
///   `[String: String]` read and Foundation's `Bundle.localizedString` on the same keys, and
///   Apple's `String(localized:locale:)` against it;
/// - direct mode: round trips per second and p50/p99 latency of one lookup, against the
///   bare C ping-pong (`Benchmarks/CPingPong`) when `L10N_PINGPONG` names its binary
///   (`scripts/bench` builds it and sets it).
///
/// Starts its own `l10nd` (from the build directory) on `Examples/Resources`; prints why
/// and returns when it cannot.
func runClientBenchmark(lookups: Int = 1_000_000, threads: Int = 4, roundTrips: Int = 10_000) {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let resources = packageRoot.appendingPathComponent("Examples/Resources").path
    let work = BenchmarkDirectory("client")
    guard let daemon = BenchmarkDaemon(resources: [resources], socket: work.path + "/l10nd.sock") else { return }
    let socket = daemon.socket
    let probe = LocalizationClient(socketPath: socket, timeout: 5)
    var fetched: [String: String] = [:]
    for _ in 0..<200 {
        if case .table(let table)? = try? probe.send(.table(languages: ["ja"], table: nil)) {
            fetched = table.entries
            break
        }
        usleep(20_000)
    }
    let entries = fetched
    probe.close()
    guard !entries.isEmpty else {
        print("client benchmark: skipped, l10nd did not answer on \(socket)")
        return
    }
    let keys = entries.keys.sorted()
    print("client benchmark: \(keys.count) keys of ja/Localizable, \(lookups) lookups from \(threads) threads")

    // The default (mapped) mode through the public API, warmed so every thread has the table.
    Localizer.shared.useDaemon(socketPath: socket, mode: .mapped)
    let mappedCheck = keys.allSatisfy { $0.language("ja").localized == entries[$0] }
    let mapped = nanosecondsPerLookup(lookups: lookups, threads: threads, keys: keys) { key in
        key.language("ja").localized
    }
    let dictionary = nanosecondsPerLookup(lookups: lookups, threads: threads, keys: keys) { key in entries[key] ?? key }
    // Apple's API on the same keys: it also turns a locale into languages and picks a bundle.
    let japanese = Locale(identifier: "ja")
    let appleCheck = keys.allSatisfy {
        String(localized: String.LocalizationValue($0), locale: japanese) == entries[$0]
    }
    let apple = nanosecondsPerLookup(lookups: lookups, threads: threads, keys: keys) { key in
        String(localized: String.LocalizationValue(key), locale: japanese)
    }
    print(
        String(
            format: "  String(localized:) %8.1f ns/lookup  %.2f× the seed's .localized (values %@)", apple,
            apple / mapped, appleCheck ? "match" : "DIFFER"))
    BenchmarkReport.shared.record(
        BenchmarkRatio(
            figure: "String(localized:), mapped, ×.localized time", value: apple, unit: "ns",
            baseline: "\"key\".ja.localized", baselineValue: mapped, ratio: apple / mapped, aim: "≤ 5×",
            met: apple / mapped <= 5))
    let bundle = foundationBundle(entries: entries, in: work.path)
    let foundationCheck = bundle.map { bundle in
        keys.allSatisfy { bundle.localizedString(forKey: $0, value: nil, table: nil) == entries[$0] }
    }
    let foundation = bundle.map { bundle in
        nanosecondsPerLookup(lookups: lookups, threads: threads, keys: keys) { key in
            bundle.localizedString(forKey: key, value: nil, table: nil)
        }
    }
    print(String(format: "  mapped   %8.1f ns/lookup  (values %@)", mapped, mappedCheck ? "match" : "DIFFER"))
    print(
        String(
            format: "  [String: String] %8.1f ns/lookup  mapped is %.2f× the dictionary (aim: ≤ 3×)", dictionary,
            mapped / dictionary))
    BenchmarkReport.shared.record(
        BenchmarkRatio(
            figure: "mapped lookup, 4 threads, ×dictionary time", value: mapped, unit: "ns",
            baseline: "[String: String]",
            baselineValue: dictionary, ratio: mapped / dictionary, aim: "≤ 3×", met: mapped / dictionary <= 3))
    if let foundation {
        print(
            String(
                format: "  Bundle.localizedString %8.1f ns/lookup  mapped is %.2f× faster (values %@)",
                foundation, foundation / mapped, foundationCheck == true ? "match" : "DIFFER"))
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "mapped lookup, speed-up over Bundle", value: mapped, unit: "ns",
                baseline: "Bundle.localizedString", baselineValue: foundation, ratio: foundation / mapped,
                aim: "> 1×", met: foundation > mapped))
    } else {
        print("  Bundle.localizedString: not measured (the bundle could not be made)")
    }

    // Direct mode: one round trip per lookup, one thread, latencies sorted. Each repeat is
    // followed by the C ping-pong, so each ratio pairs figures taken moments apart.
    var rates: [Double] = []
    var ratios: [Double] = []
    var p50s: [Double] = []
    var p99s: [Double] = []
    var floorRuns: [CPingPongFloor.Result] = []
    for _ in 0..<5 {
        Localizer.shared.useDaemon(socketPath: socket, mode: .direct)
        var latencies: [Double] = []
        latencies.reserveCapacity(roundTrips)
        let started = Date()
        for index in 0..<roundTrips {
            let begin = DispatchTime.now().uptimeNanoseconds
            _ = keys[index % keys.count].language("ja").localized
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin))
        }
        let rate = Double(roundTrips) / Date().timeIntervalSince(started)
        Localizer.shared.useEmbedded()
        latencies.sort()
        rates.append(rate)
        p50s.append(latencies[latencies.count / 2])
        p99s.append(latencies[Int(Double(latencies.count) * 0.99)])
        guard let floor = CPingPongFloor.run(count: roundTrips) else { continue }
        floorRuns.append(floor)
        ratios.append(rate / floor.roundTripsPerSecond)
    }
    let rate = figure("direct", rates)
    print(
        String(
            format: "  direct   %8.0f round trips/s (min %.0f, max %.0f)  p50 %.1f µs  p99 %.1f µs", rate.median,
            rate.min, rate.max, figure("p50", p50s).median / 1000, figure("p99", p99s).median / 1000))
    guard !ratios.isEmpty else {
        print("  C ping-pong: not run (no C compiler, and L10N_PINGPONG unset)")
        return
    }
    let floorRate = figure("C", floorRuns.map(\.roundTripsPerSecond))
    let ratio = figure("ratio", ratios)
    print(
        String(
            format: "  C ping-pong %8.0f round trips/s (min %.0f, max %.0f)  p50 %.1f µs  p99 %.1f µs",
            floorRate.median, floorRate.min, floorRate.max,
            figure("p50", floorRuns.compactMap(\.p50Nanoseconds)).median / 1000,
            figure("p99", floorRuns.compactMap(\.p99Nanoseconds)).median / 1000))
    print(String(format: "  direct is %.2f× the C round-trip rate (median of paired runs)", ratio.median))
    BenchmarkReport.shared.record(
        BenchmarkRatio(
            figure: "direct lookup, 1 client, ×C round-trip rate", value: rate.median, unit: "round trips/s",
            baseline: "C ping-pong", baselineValue: floorRate.median, ratio: ratio.median,
            aim: "≥ 0.5×", met: ratio.median >= 0.5))
}

/// Median ns per call of `body` over 5 repeats, `lookups` calls split over `threads`.
private func nanosecondsPerLookup(
    lookups: Int, threads: Int, keys: [String], _ body: @escaping @Sendable (String) -> String
) -> Double {
    var results: [Double] = []
    for _ in 0..<5 {
        let perThread = lookups / threads
        let begin = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var total = 0
            for index in 0..<perThread {
                total &+= body(keys[(index &+ thread) % keys.count]).utf8.count
            }
            blackHole(total)
        }
        results.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / Double(perThread * threads))
    }
    return results.sorted()[results.count / 2]
}

/// Keeps a result alive so the optimiser cannot drop the loop that made it.
@inline(never)
private func blackHole(_ value: Int) {
    if value == -1 { print("") }
}

/// A flat bundle holding `entries` as `Localizable.strings`: Foundation reads an
/// unlocalized table straight from the bundle's directory.
private func foundationBundle(entries: [String: String], in work: String) -> Bundle? {
    let directory = work + "/Bench.bundle"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard let data = try? PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0),
        (try? data.write(to: URL(fileURLWithPath: directory + "/Localizable.strings"))) != nil
    else { return nil }
    return Bundle(path: directory)
}
