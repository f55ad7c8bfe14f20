import Foundation
import LocalizationCore
import TestSupport
import Testing

/// docs/FORMAT-2.md is enough to read compiled tables: the Python reader written from it
/// alone (clients/python/l10nd_compiled_tables.py) gives the catalog's answers for buffers
/// the Swift writer made, and refuses a damaged one.
@Suite struct CompiledTablesPythonTests {
    static let script = PackagePaths.root + "/clients/python/l10nd_compiled_tables.py"

    static func python() throws -> String {
        try #require(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "python3 is needed (scripts/install-dependencies installs it)")
    }

    @Test func pythonReadsTheExamplesAsTheCatalogAnswers() throws {
        let catalog = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        try expectPythonAnswers(catalog, languages: CompiledTablesTests.exampleLanguages, everyNthKey: 1)
    }

    @Test func pythonReadsASampleOfTheCorpus() throws {
        guard let corpus = PackagePaths.corpus else { return }
        let catalog = ResourceSet.load(roots: [corpus]).catalog
        try expectPythonAnswers(catalog, languages: catalog.languages, everyNthKey: 211)
    }

    @Test func pythonMatchesCanonicallyEquivalentKeys() throws {
        var catalog = ResourceCatalog(developmentLanguage: try LanguageTag("en"))
        let strings = ["Xo\u{301}a": "Delete", "Caf\u{E9}": "Coffee", "한국어": "Korean", "plain": "ASCII"]
        catalog.setTable(LocalizationTable(strings: strings), language: "en", name: "Localizable")
        try expectPythonAnswers(catalog, languages: [try LanguageTag("en")], everyNthKey: 1)
    }

    @Test func pythonRefusesADamagedBuffer() throws {
        let directory = try TemporaryDirectory(prefix: "compiled-python")
        var bytes = CompiledTablesDamageTests.bytes
        bytes[bytes.count - 3] ^= 0x40
        let path = try directory.write(Data(bytes), to: "damaged.l10ntables")
        let output = try ProcessRunner.run(try Self.python(), [Self.script, path], stdin: "")
        #expect(output.status == 1)
        #expect(output.stdout.contains("body checksum"), "\(output.stdout) \(output.stderr)")
    }

    /// Writes `catalog` compiled for `languages`, asks the Python reader for every
    /// `everyNthKey`-th (language, table, key), and compares with the catalog's lookups.
    func expectPythonAnswers(_ catalog: ResourceCatalog, languages: [LanguageTag], everyNthKey: Int) throws {
        let directory = try TemporaryDirectory(prefix: "compiled-python")
        let bytes = try CompiledTablesWriter(catalog: catalog, languages: languages, generation: 9).bytes
        let tablesPath = try directory.write(Data(bytes), to: "tables.l10ntables")
        var queries: [(key: String, language: LanguageTag, table: String)] = []
        var position = 0
        for name in Set(catalog.tables.values.flatMap(\.keys)).sorted() {
            var keys: Set<String> = ["no such key ✗"]
            for byName in catalog.tables.values { byName[name]?.forEachEntry { key, _ in keys.insert(key) } }
            for language in languages {
                // Each key also decomposed and composed: the reader composes what misses.
                for key in keys.sorted().flatMap(CompiledTablesTests.canonicalSpellings(of:)) {
                    position += 1
                    if position % everyNthKey == 0 { queries.append((key, language, name)) }
                }
            }
        }
        let lines = try queries.map { query in
            String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "key": query.key, "lang": query.language.identifier, "table": query.table,
                ]), as: UTF8.self)
        }
        let queriesPath = try directory.write(lines.joined(separator: "\n") + "\n", to: "queries.jsonl")
        let output = try ProcessRunner.run(try Self.python(), [Self.script, tablesPath, queriesPath], timeout: 120)
        try #require(output.status == 0, "\(output.stdout) \(output.stderr)")
        let answers = output.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        try #require(answers.count == queries.count + 1)
        #expect(answers[0]["generation"] as? Int == 9)
        var mismatches: [String] = []
        for (query, answer) in zip(queries, answers.dropFirst()) {
            let expected = catalog.lookup(query.key, in: query.table, chain: catalog.chain([query.language]))
            let place = "\(query.language.identifier)/\(query.table)/\(query.key.debugDescription)"
            guard answer["found"] as? Bool == expected.found else {
                mismatches.append("\(place): found \(String(describing: answer["found"]))")
                continue
            }
            guard expected.found else { continue }
            if (answer["value"] as? String).map({ Array($0.utf8) }) != Array(expected.value.utf8)
                || answer["lang"] as? String != expected.language?.identifier
            {
                mismatches.append("\(place): \(answer) ≠ \(expected.value.debugDescription)")
            }
            if Self.pluralFormat(answer["plural"]) != expected.entry?.plural {
                mismatches.append("\(place): plural \(String(describing: answer["plural"]))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// The Python reader's plural block as a ``PluralFormat``; `nil` for JSON `null`.
    static func pluralFormat(_ json: Any?) -> PluralFormat? {
        guard let plural = json as? [String: Any], let format = plural["format"] as? String,
            let variables = plural["variables"] as? [String: [String: Any]]
        else { return nil }
        return PluralFormat(
            format: format,
            variables: variables.mapValues { variable in
                let forms = (variable["forms"] as? [String: String]) ?? [:]
                return PluralFormat.Variable(
                    valueType: variable["type"] as? String,
                    forms: Dictionary(
                        uniqueKeysWithValues: forms.compactMap { name, form in
                            PluralCategory(rawValue: name).map { ($0, form) }
                        }),
                    argumentNumber: variable["arg"] as? Int)
            })
    }
}
