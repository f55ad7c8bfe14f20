import Foundation
import Localization
import LocalizationWire

/// Whether the daemon's cost grows with the number of files and no faster:
/// - cold start to `READY=1` with 250 and with 2,000 languages (one small `Localizable.strings`
///   each): 8× the files should cost at most 10× the time (it cost 67× when each changed
///   table was assembled from a search of every file);
/// - 500 language directories deleted at once until `status` no longer counts them, next
///   to one directory deleted the same way.
func runScaleBenchmark(keys: Int = 50) {
    print("scale: start-up and deletion against the number of language directories")
    let small = startTime(languages: 250, keys: keys)
    let large = startTime(languages: 2_000, keys: keys)
    if let small, let large {
        print(
            String(
                format: "    per file: %.3f ms at 250 languages, %.3f ms at 2,000", small / 250, large / 2_000))
        let ratio = large / small
        print(
            String(
                format: "    ratio: %.2fx for 8x the files (aim ≤ 10x: %@)", ratio,
                (ratio <= 10 ? "meets" : "MISSES") as NSString))
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "cold start, 2,000 languages ÷ 250 (8× the files)", value: large, unit: "ms",
                baseline: "250 languages", baselineValue: small, ratio: ratio, aim: "≤ 10×", met: ratio <= 10))
    }
    deletion(keys: keys)
}

/// The median of three starts to `READY=1` over `languages` × `keys`, in milliseconds.
private func startTime(languages: Int, keys: Int, repeats: Int = 3) -> Double? {
    let directory = BenchmarkDirectory("scale-\(languages)")
    let resources = SyntheticResources(languages: languages, keys: keys, under: directory.path)
    var times: [Double] = []
    for attempt in 0..<repeats {
        guard let notify = NotifyReceiver(path: directory.path + "/notify-\(attempt).sock") else { return nil }
        let start = ContinuousClock.now
        guard
            let daemon = BenchmarkDaemon(
                resources: [resources.root], socket: directory.path + "/l10nd.sock",
                environment: ["NOTIFY_SOCKET": notify.path, "PATH": "/usr/bin:/bin"])
        else { return nil }
        guard notify.waitFor("READY=1", timeout: 300) else {
            print("  stopped: no READY=1 within 300 s")
            return nil
        }
        times.append(milliseconds(since: start))
        _ = daemon
    }
    let median = percentile(times, 0.5)
    print(
        String(
            format: "    %5d languages: start → READY=1 median %8.1f ms (min %.1f, max %.1f)", languages, median,
            times.min() ?? 0, times.max() ?? 0))
    return median
}

/// Deletes one language directory, then 500 at once, and times each until `status` shows it.
private func deletion(keys: Int) {
    let directory = BenchmarkDirectory("scale-delete")
    let resources = SyntheticResources(languages: 502, keys: keys, under: directory.path)
    guard let daemon = BenchmarkDaemon(resources: [resources.root], socket: directory.path + "/l10nd.sock"),
        daemon.waitUntilAnswering(), let connection = try? DaemonConnection(socketPath: daemon.socket, timeout: 10)
    else { return }
    func languagesServed() -> Int64 {
        guard case .fields(let fields)? = try? connection.send(.status) else { return -1 }
        return fields["languages"]?.integerValue ?? -1
    }
    /// Milliseconds from the first removal until `status` counts at most `expected` languages.
    func timeDeletion(of tags: ArraySlice<String>, expected: Int64) -> Double? {
        let start = ContinuousClock.now
        for tag in tags { try? FileManager.default.removeItem(atPath: resources.root + "/\(tag).lproj") }
        let deadline = ContinuousClock.now + .seconds(60)
        while languagesServed() > expected {
            guard ContinuousClock.now < deadline else {
                print("  stopped: the deletion did not take effect within 60 s")
                return nil
            }
            usleep(1_000)
        }
        return milliseconds(since: start)
    }
    let languages = resources.languages
    let before = languagesServed()
    guard before > 1, let one = timeDeletion(of: languages.suffix(1), expected: before - 1),
        let many = timeDeletion(of: languages.dropLast().suffix(500), expected: 1)
    else { return }
    print(String(format: "    deleting 1 language directory: served without it after %.1f ms", one))
    print(
        String(
            format: "    deleting 500 at once: %.1f ms (%.2f ms per directory), %.1fx one", many, many / 500, many / one
        ))
    BenchmarkReport.shared.record(
        BenchmarkRatio(
            figure: "500 language directories deleted, until served without them", value: many, unit: "ms",
            baseline: "1 directory deleted", baselineValue: one, ratio: many / one, aim: nil, met: nil))
}
