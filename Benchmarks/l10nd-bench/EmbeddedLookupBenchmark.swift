import Foundation
import Glibc
import Localization
import LocalizationCore

/// Embedded mode on a corpus (the iina one by default), one thread: ns per
/// `"key".language("de").localized(table:)` and per `Localizer.lookup`, each next to a
/// `[String: String]` read of the same keys in the same run, and the process's resident
/// memory that reading the files added (after `malloc_trim`, so freed parse buffers do not
/// count). Run it from two builds to compare them: only public API, so any version builds it.
func runEmbeddedLookupBenchmark(corpusRoot: String?, lookups: Int = 2_000_000) {
    guard let corpus = corpusRoot else {
        print("embedded benchmark: skipped, no corpus (give its directory)")
        return
    }
    trimHeap()
    let before = residentKilobytes()
    let localizer = Localizer.shared
    localizer.useResources(at: [corpus])
    localizer.useEmbedded()
    let tables = localizer.servedTables ?? []
    // One lookup reads and compiles every file; one per table touches what lookups touch.
    for table in tables { _ = localizer.lookup("-", languages: ["de"], table: table) }
    trimHeap()
    let after = residentKilobytes()
    print(
        "embedded benchmark: \(corpus), \(tables.count) tables; resident memory the files added: "
            + "\((after - before) / 1024) MiB (\(before / 1024) → \(after / 1024) MiB)")
    // The largest German table, its keys and values from the same files, for the baseline.
    let catalog = ResourceSet.load(roots: [corpus]).catalog
    guard
        let (table, entries) = (catalog.tables["de"] ?? [:]).max(by: { $0.value.entries.count < $1.value.entries.count }
        )
    else { return print("  no German table") }
    let dictionary = entries.entries.mapValues(\.value)
    let keys = dictionary.keys.sorted()
    let check = keys.allSatisfy { $0.language("de").localized(table: table) == dictionary[$0] }
    let localized = nanoseconds(lookups, keys) { $0.language("de").localized(table: table) }
    let lookup = nanoseconds(lookups, keys) { localizer.lookup($0, languages: ["de"], table: table).value }
    let plain = nanoseconds(lookups, keys) { dictionary[$0] ?? $0 }
    print(
        String(
            format: "  de/%@ (%d keys, values %@): .localized %.1f ns (%.2f× the dictionary), "
                + "Localizer.lookup %.1f ns (%.2f×), [String: String] %.1f ns",
            table, keys.count, check ? "match" : "DIFFER", localized, localized / plain, lookup, lookup / plain,
            plain))
}

/// Median ns per call of `body` over 5 repeats of `count` calls cycling through `keys`.
private func nanoseconds(_ count: Int, _ keys: [String], _ body: (String) -> String) -> Double {
    var results: [Double] = []
    for _ in 0..<5 {
        var total = 0
        let begin = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count { total &+= body(keys[index % keys.count]).utf8.count }
        results.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / Double(count))
        if total == -1 { print("") }
    }
    return results.sorted()[2]
}

/// `VmRSS` of this process, in KiB.
private func residentKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// glibc's `malloc_trim(0)`, which the `Glibc` module does not export: freed parse buffers
/// are given back, so resident memory counts what is kept.
private func trimHeap() {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
}
