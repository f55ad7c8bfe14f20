import Foundation
import LocalizationCore

/// One line of a benchmark's results: a throughput (bytes, lookups, ratios… per second)
/// with its spread over the repeats.
struct BenchmarkFigure {
    /// What was measured, e.g. `UTF-8 StringsParser`.
    var name: String
    /// The median repeat.
    var median: Double
    /// The slowest repeat.
    var min: Double
    /// The fastest repeat.
    var max: Double
}

/// The corpus of real `.strings` files next to the package (`../shared/corpus/iina`), found
/// from this source file's path so the benchmark runs from any directory.
func defaultCorpusRoot() -> String? {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/iina").path
    return FileManager.default.fileExists(atPath: corpus) ? corpus : nil
}

/// Measures `StringsParser` against Foundation's `PropertyListSerialization` on the same bytes,
/// in UTF-8 and in UTF-16 LE with a byte order mark, and prints the figures and ratios.
///
/// Ours makes a ``StringsTable`` (one byte buffer, spans and a key index, what the loaders
/// read), Foundation a dictionary of strings; both results are freed in the timed pass.
///
/// The input is every non-empty `.strings` file under `corpusRoot` (Foundation rejects empty
/// ones), or a generated set when there is no corpus. Each repeat parses every file once.
func runParseBenchmark(corpusRoot: String?, repeats: Int = 9) -> [BenchmarkFigure] {
    let corpus = loadCorpus(corpusRoot)
    let utf8Files = corpus ?? generatedFiles()
    let utf16Files = utf8Files.map { bytes -> [UInt8] in
        let text = String(decoding: bytes, as: UTF8.self)
        return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
    }
    let source = corpus == nil ? "generated (no corpus at \(corpusRoot ?? "../shared/corpus/iina"))" : corpusRoot ?? ""
    print("parse benchmark: StringsParser vs PropertyListSerialization, \(utf8Files.count) files, \(source)")
    var figures: [BenchmarkFigure] = []
    for (label, files) in [("UTF-8", utf8Files), ("UTF-16", utf16Files)] {
        let totalBytes = Double(files.reduce(0) { $0 + $1.count })
        let datas = files.map { Data($0) }
        let parseAll = {
            var keys = 0
            for file in files { keys += (try? StringsParser.parseTable(file))?.count ?? 0 }
            return keys
        }
        let foundationAll = {
            var keys = 0
            for data in datas {
                let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                keys += (object as? [String: Any])?.count ?? 0
            }
            return keys
        }
        // Both warm up once; then the two alternate, so a noisy neighbour slows both alike.
        let oursKeys = parseAll()
        let foundationKeys = foundationAll()
        var oursRates: [Double] = []
        var foundationRates: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<repeats {
            let ours = totalBytes / seconds { _ = parseAll() }
            let foundation = totalBytes / seconds { _ = foundationAll() }
            oursRates.append(ours)
            foundationRates.append(foundation)
            ratios.append(ours / foundation)
        }
        let oursFigure = figure("\(label) StringsParser", oursRates)
        let foundationFigure = figure("\(label) PropertyListSerialization", foundationRates)
        figures += [oursFigure, foundationFigure]
        print(
            String(
                format: "  %@: %.1f MB in %d files; keys per pass: ours %d, Foundation %d",
                label as NSString, totalBytes / 1e6, files.count, oursKeys, foundationKeys))
        for figure in [oursFigure, foundationFigure] {
            print(
                String(
                    format: "    %-36@ median %7.1f MB/s  (min %7.1f, max %7.1f)",
                    figure.name as NSString, figure.median / 1e6, figure.min / 1e6, figure.max / 1e6))
        }
        ratios.sort()
        print(
            String(
                format: "    ratio, median of paired runs: %.1fx  (min %.1fx, max %.1fx)",
                ratios[ratios.count / 2], ratios.first!, ratios.last!))
        let ratio = ratios[ratios.count / 2]
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "parse \(label), ×Foundation's speed", value: oursFigure.median / 1e6, unit: "MB/s",
                baseline: "PropertyListSerialization", baselineValue: foundationFigure.median / 1e6, ratio: ratio,
                aim: "≥ 30×", met: ratio >= 30))
    }
    return figures
}

private func seconds(_ body: () -> Void) -> Double {
    let elapsed = ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// The median, min and max of `rates` (at least one).
func figure(_ name: String, _ rates: [Double]) -> BenchmarkFigure {
    let sorted = rates.sorted()
    return BenchmarkFigure(name: name, median: sorted[sorted.count / 2], min: sorted.first!, max: sorted.last!)
}

private func loadCorpus(_ root: String?) -> [[UInt8]]? {
    guard let root, let languages = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
    var files: [[UInt8]] = []
    for language in languages.sorted() where language.hasSuffix(".lproj") {
        let directory = root + "/" + language
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasSuffix(".strings") {
            if let data = FileManager.default.contents(atPath: directory + "/" + name), !data.isEmpty {
                files.append(Array(data))
            }
        }
    }
    return files.isEmpty ? nil : files
}

/// 400 files of 120 entries with comments, escapes and non-ASCII text, for a machine without
/// the corpus.
private func generatedFiles() -> [[UInt8]] {
    (0..<400).map { fileNumber in
        var text = "/* Generated file \(fileNumber) */\n\n"
        for entry in 0..<120 {
            text += "/* Class = \"NSMenuItem\"; title = \"Item \(entry)\"; ObjectID = \"x\(entry)\"; */\n"
            text += "\"key.\(fileNumber).\(entry)\" = \"Valeur n° \(entry) — « ok » \\\"quoted\\\" 多言語化\";\n\n"
        }
        return Array(text.utf8)
    }
}
