import Foundation
import LocalizationCore

/// A lookup in compiled tables, in place (issue 14: ≤ 1.5× a dictionary read), against a
/// `[String: String]` read of the same keys, in the same run: `languages` × `keys` plain
/// entries (every language's own value, so no answer is a fallback's), the same shuffled
/// keys read from one language's table each way.
func runCompiledLookupBenchmark(languages languageCount: Int = 10, keys keyCount: Int = 100_000) {
    print("compiled lookup: \(languageCount) languages × \(keyCount) keys")
    let identifiers = ["en", "ja", "fr", "de", "es", "it", "ru", "ko", "pt-BR", "zh-Hans"]
    let tags = identifiers.prefix(max(1, min(languageCount, identifiers.count))).map { try! LanguageTag($0) }
    let languageCount = tags.count
    // Decoded, as a file's parser makes them (CallerKeys says why).
    let keys = (0..<keyCount).map { CallerKeys.copy("screen\($0 % 97).label\($0)") }
    var catalog = ResourceCatalog(developmentLanguage: tags[0])
    var dictionary: [String: String] = [:]
    for (number, tag) in tags.enumerated() {
        var table: [String: String] = [:]
        table.reserveCapacity(keyCount)
        for (index, key) in keys.enumerated() { table[key] = SyntheticResources.value(key: index, language: number) }
        if number == languageCount / 2 { dictionary = table }
        catalog.setTable(LocalizationTable(strings: table), language: tag.identifier, name: "Localizable")
    }
    let chosen = tags[languageCount / 2]
    let started = ContinuousClock.now
    let bytes: [UInt8]
    do { bytes = try CompiledTablesWriter(catalog: catalog, languages: tags, generation: 1).bytes } catch {
        print("  cannot compile: \(error)")
        return
    }
    print(
        String(
            format: "  compiled in %.0f ms: %.1f MiB", milliseconds(of: ContinuousClock.now - started),
            Double(bytes.count) / 1_048_576))
    // Keys of their own, as a caller holds them; the dictionary's own instances for comparison.
    let (order, shared) = CallerKeys.shuffled(keys)
    bytes.withUnsafeBytes { buffer in
        guard let tables = try? CompiledTables(buffer), let language = tables.language(chosen.identifier),
            let table = tables.table(nil)
        else { return print("  cannot open the compiled tables") }
        var compiledSamples: [Double] = []
        var dictionarySamples: [Double] = []
        var sharedKeySamples: [Double] = []
        // Paired and alternating, five rounds: load on the shared machine hits both alike.
        for _ in 0..<5 {
            compiledSamples.append(
                cpuNanosecondsPerCall(order) { key in
                    (try? tables.lookup(key, language: language, table: table))?.value.count ?? 0
                })
            dictionarySamples.append(cpuNanosecondsPerCall(order) { key in dictionary[key]?.utf8.count ?? 0 })
            sharedKeySamples.append(cpuNanosecondsPerCall(shared) { key in dictionary[key]?.utf8.count ?? 0 })
        }
        let compiled = compiledSamples.sorted()[2]
        let baseline = dictionarySamples.sorted()[2]
        let sharedKeys = sharedKeySamples.sorted()[2]
        let ratio = compiled / baseline
        print(
            String(
                format: "  in place %.1f ns, [String: String] read %.1f ns: %.2f× (aim ≤ 1.5×)", compiled, baseline,
                ratio))
        print(
            String(
                format: "  (with the dictionary's own key instances: %.1f ns, %.2f×)", sharedKeys,
                compiled / sharedKeys))
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "compiled lookup in place, \(languageCount) languages × \(keyCount) keys, ×dictionary read",
                value: compiled, unit: "ns", baseline: "[String: String] read", baselineValue: baseline, ratio: ratio,
                aim: "≤ 1.5×", met: ratio <= 1.5))
    }
}

private func milliseconds(of duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}
