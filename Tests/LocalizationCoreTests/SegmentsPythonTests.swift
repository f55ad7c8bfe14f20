import Foundation
import LocalizationCore
import TestSupport
import Testing

/// docs/FORMAT.md (version 3.0) is enough to read segments: the Python reader written from
/// it alone (clients/python/l10nd_segments.py), given the segments the Swift builder made
/// and each lookup's chain, answers as the Swift lookup over them does, and refuses a
/// damaged segment.
@Suite struct SegmentsPythonTests {
    static let script = PackagePaths.root + "/clients/python/l10nd_segments.py"

    @Test func pythonAnswersTheExamplesAsTheSwiftLookupDoes() throws {
        try expectPythonAnswers([PackagePaths.exampleResources, PackagePaths.stringCatalog], everyNth: 1)
    }

    @Test(.enabled(if: PackagePaths.corpus != nil, "the shared corpus is absent"))
    func pythonAnswersASampleOfTheCorpus() throws {
        // A few languages: the Python reader checks each segment's CRC a byte at a time.
        try expectPythonAnswers(
            [try #require(PackagePaths.corpus)], everyNth: 7, only: ["Base", "en", "de", "ja", "zh-Hans", "pt-BR"])
    }

    @Test func pythonRefusesADamagedSegment() throws {
        let directory = try TemporaryDirectory(prefix: "segments-python")
        var bytes = SegmentDamageTests.bytes
        bytes[bytes.count - 3] ^= 0x40
        let path = try directory.write(Data(bytes), to: "damaged.l10nseg")
        let output = try ProcessRunner.run(try SegmentTestSupport.python(), [Self.script, path], stdin: "")
        #expect(output.status == 1)
        #expect(output.stdout.contains("body checksum"), "\(output.stdout) \(output.stderr)")
    }

    /// Writes every segment built from `roots`, asks the Python reader for every
    /// `everyNth` (preferences, table, key) — each language alone and before the next —
    /// and compares with the Swift lookup. Pseudo-languages are the Swift lookup's alone.
    /// With `only`, the segments of other languages are left out of both.
    func expectPythonAnswers(_ roots: [String], everyNth: Int, only: Set<String>? = nil) throws {
        var (_, segments) = try SegmentLookupTests.load(roots)
        for segment in segments.allSegments where only.map({ !$0.contains(segment.language) }) ?? false {
            segments = segments.replacing(nil, language: segment.language, table: segment.table)
        }
        let directory = try TemporaryDirectory(prefix: "segments-python")
        var paths: [String] = []
        for (number, segment) in segments.allSegments.enumerated() {
            paths.append(try directory.write(Data(segment.bytes), to: "\(number).l10nseg"))
        }
        let languages = segments.languages
        let preferences =
            languages.map { [$0] } + languages.indices.map { [languages[$0], languages[($0 + 1) % languages.count]] }
        var queries: [(key: String, preferred: [LanguageTag], table: String, chain: [String])] = []
        var position = 0
        for (table, byLanguage) in segments.segments.sorted(by: { $0.key < $1.key }) {
            var keys: Set<String> = ["no such key ✗"]
            for segment in byLanguage.values {
                for number in 0..<segment.reader.keyCount {
                    keys.insert(String(decoding: try segment.reader.key(of: number), as: UTF8.self))
                }
            }
            for preferred in preferences {
                let chain = segments.candidates(table, chain: segments.chain(preferred)).identifiers
                for key in keys.sorted().flatMap(SegmentTestSupport.canonicalSpellings(of:)) {
                    position += 1
                    if position % everyNth == 0 { queries.append((key, preferred, table, chain)) }
                }
            }
        }
        let lines = try queries.map { query in
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "key": query.key, "table": query.table, "chain": query.chain,
                ]), as: UTF8.self)
        }
        let queriesPath = try directory.write(lines.joined(separator: "\n") + "\n", to: "queries.jsonl")
        let output = try ProcessRunner.run(
            try SegmentTestSupport.python(), [Self.script] + paths + ["--queries", queriesPath], timeout: 120)
        try #require(output.status == 0, "\(output.stdout) \(output.stderr)")
        let answers = output.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        try #require(answers.count == queries.count)
        var mismatches: [String] = []
        for (query, answer) in zip(queries, answers) {
            let expected = try segments.lookup(query.key, in: query.table, chain: segments.chain(query.preferred))
            let place = "\(query.preferred.map(\.identifier))/\(query.table)/\(query.key.debugDescription)"
            guard answer["found"] as? Bool == expected.found else {
                mismatches.append("\(place): found \(String(describing: answer["found"]))")
                continue
            }
            guard expected.found else { continue }
            if (answer["value"] as? String).map({ Array($0.utf8) }) != Array(expected.value.utf8)
                || answer["lang"] as? String != expected.language?.identifier
                || SegmentTestSupport.pluralFormat(answer["plural"]) != expected.entry?.plural
            {
                mismatches.append("\(place): \(answer) ≠ \(expected.value.debugDescription)")
            }
        }
        #expect(queries.count > 100)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}
