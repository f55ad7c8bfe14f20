import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Compiled tables answer every lookup as the catalog does: for each compiled language,
/// table and key (and a key no table has), the same value, found or not, the same serving
/// language, and the same plural forms and selections.
@Suite struct CompiledTablesTests {
    /// The example languages, the pseudo-languages, and tags only a fallback serves.
    static let exampleLanguages =
        try! ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog.languages
        + ["en-XA", "ar-XB", "zh-TW", "zh-HK", "pt-PT", "ja-JP", "en-GB", "es"].map { try LanguageTag($0) }

    @Test func checksumAndHashMatchTheirPublishedValues() {
        #expect(CRC32C.checksum("123456789") == 0xE306_9283)
        #expect(CRC32C.checksum("") == 0)
        // Longer than one eight-byte step, at an odd length: both loops of the sliced CRC.
        #expect(
            CRC32C.checksum(String(repeating: "a", count: 33)) == Self.bytewiseCRC32C(Array(repeating: 0x61, count: 33))
        )
        // As the Python reader, written from docs/FORMAT.md, computes them: empty, one byte,
        // less than a word, two words and a tail, exactly one word.
        #expect(CompiledKeyHash.hash("") == 0xF8BB_92C9_1B3F_5CC0)
        #expect(CompiledKeyHash.hash("a") == 0x8B4F_F74B_C8E7_8038)
        #expect(CompiledKeyHash.hash("foobar") == 0x1CDB_540C_A949_AE1D)
        #expect(CompiledKeyHash.hash("screen12.label12345") == 0xE423_22A7_73A6_37D8)
        #expect(CompiledKeyHash.hash("abcdefgh") == 0xDD71_5570_8D27_C908)
    }

    @Test func examplesAnswerAsTheCatalogDoes() throws {
        let resources = ResourceSet.load(roots: [PackagePaths.exampleResources])
        let mismatches = try Self.mismatches(resources.catalog, languages: Self.exampleLanguages)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test(arguments: ["iina", "mastodon-ios"])
    func corpusAnswersAsTheCatalogDoes(project: String) throws {
        let root = PackagePaths.root + "/../shared/corpus/" + project
        guard FileManager.default.fileExists(atPath: root) else { return }  // a clone without ../shared
        let catalog = ResourceSet.load(roots: [root]).catalog
        let mismatches = try Self.mismatches(catalog, languages: catalog.languages + [try LanguageTag("en-XA")])
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// A key spelled composed finds one stored decomposed and the other way round, as in
    /// the catalog's dictionaries; the keys array keeps each key as the files spell it.
    @Test func keysMatchTheirCanonicallyEquivalentSpellings() throws {
        let stored = [
            "Xo\u{301}a": "Delete",  // decomposed in the file
            "Caf\u{E9}": "Coffee",  // composed
            "\u{212B}ngstro\u{308}m": "Angstrom",  // a singleton (Å sign) and a decomposed ö
            "한국어": "Korean",  // Hangul syllables, which decompose into jamo
            "plain": "ASCII",
        ]
        var catalog = ResourceCatalog(developmentLanguage: try LanguageTag("en"))
        catalog.setTable(LocalizationTable(strings: stored), language: "en", name: "Localizable")
        let bytes = try CompiledTablesWriter(catalog: catalog, languages: [try LanguageTag("en")], generation: 1).bytes
        try bytes.withUnsafeBytes { buffer in
            let tables = try CompiledTables(buffer)
            let en = try #require(tables.language("en"))
            let table = try #require(tables.table(nil))
            for (key, value) in stored {
                for spelling in Self.canonicalSpellings(of: key) {
                    let expected = catalog.lookup(spelling, chain: catalog.chain([try LanguageTag("en")]))
                    #expect(expected.found && expected.value == value, "the catalog finds \(spelling.debugDescription)")
                    #expect(
                        try tables.lookup(spelling, language: en, table: table)?.valueString == value,
                        "\(Array(spelling.unicodeScalars))")
                    let viaBytes = try Array(spelling.utf8).withUnsafeBytes { spellingBytes in
                        try tables.lookup(spellingBytes, language: en, table: table)?.valueString
                    }
                    #expect(viaBytes == value)
                }
            }
            let keys = try (0..<table.keyCount).map { String(decoding: try tables.key($0, in: table), as: UTF8.self) }
            #expect(Set(keys.map { Array($0.utf8) }) == Set(stored.keys.map { Array($0.utf8) }))
            // Not equivalent: another letter, a mark on another letter, bytes that are no UTF-8.
            #expect(try tables.lookup("Xo\u{301}b", language: en, table: table) == nil)
            #expect(try tables.lookup("X\u{F3}\u{301}a", language: en, table: table) == nil)
            #expect(
                try [0x58, 0xCC, 0x61].withUnsafeBytes { try tables.lookup($0, language: en, table: table) } == nil)
        }
    }

    @Test func headerNamesTheGenerationAndEveryLanguageAndTable() throws {
        let catalog = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        let bytes = try CompiledTablesWriter(catalog: catalog, generation: 42).bytes
        try bytes.withUnsafeBytes { buffer in
            let tables = try CompiledTables(buffer)
            #expect(tables.generation == 42)
            let languages = tables.languages.map(tables.identifier(of:))
            #expect(Set(languages) == Set(catalog.languages.map(\.identifier) + ["en-XA", "ar-XB"]))
            #expect(tables.tables.map(tables.name(of:)).contains("Localizable"))
            #expect(tables.language("xx") == nil)
            #expect(try tables.lookup("多言語化", language: "xx") == nil)
        }
    }

    @Test func writesIntoAGivenBufferAndRefusesASmallOne() throws {
        let catalog = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        let writer = try CompiledTablesWriter(catalog: catalog, generation: 1)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: writer.byteCount + 4096, alignment: 8)
        defer { buffer.deallocate() }
        try writer.write(into: buffer)
        // A mapping is rounded up to pages: the reader reads the length the header states.
        let tables = try CompiledTables(UnsafeRawBufferPointer(buffer))
        #expect(try tables.lookup("多言語化", language: "en")?.valueString == "Multilingualization")
        #expect(throws: CompiledTablesError.bufferTooSmall(needed: writer.byteCount, available: 16)) {
            try writer.write(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<16]))
        }
    }

    @Test func sameCatalogCompilesToTheSameBytes() throws {
        let first = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        let second = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        #expect(
            try CompiledTablesWriter(catalog: first, generation: 3).bytes
                == CompiledTablesWriter(catalog: second, generation: 3).bytes)
    }

    /// Every way `catalog`'s lookups and the compiled tables' differ, described.
    static func mismatches(_ catalog: ResourceCatalog, languages: [LanguageTag]) throws -> [String] {
        let bytes = try CompiledTablesWriter(catalog: catalog, languages: languages, generation: 7).bytes
        var found: [String] = []
        try bytes.withUnsafeBytes { buffer in
            let tables = try CompiledTables(buffer)
            for name in Set(catalog.tables.values.flatMap(\.keys)).sorted() {
                var keys: Set<String> = ["no such key ✗"]
                for byName in catalog.tables.values { byName[name]?.forEachEntry { key, _ in keys.insert(key) } }
                // Each key also as its canonical decomposition and composition, when they are
                // other bytes: a dictionary finds them all, so must the compiled tables.
                let spellings = keys.flatMap(Self.canonicalSpellings(of:))
                for language in languages {
                    let chain = catalog.chain([language])
                    for key in spellings {
                        let expected = catalog.lookup(key, in: name, chain: chain)
                        let answer = try tables.lookup(key, language: language.identifier, table: name)
                        let place = "\(language.identifier)/\(name)/\(key.debugDescription)"
                        guard let answer else {
                            if expected.found {
                                found.append("\(place): compiled misses \(expected.value.debugDescription)")
                            }
                            continue
                        }
                        guard expected.found else {
                            found.append("\(place): compiled finds \(answer.valueString.debugDescription)")
                            continue
                        }
                        if Array(answer.valueString.utf8) != Array(expected.value.utf8) {
                            found.append(
                                "\(place): \(answer.valueString.debugDescription) ≠ \(expected.value.debugDescription)")
                        }
                        if answer.languageIdentifier != expected.language?.identifier {
                            found.append(
                                "\(place): served by \(answer.languageIdentifier), not \(String(describing: expected.language))"
                            )
                        }
                        if try answer.plural?.format() != expected.entry?.plural {
                            found.append("\(place): plural forms differ")
                        }
                        guard expected.entry?.plural != nil else { continue }
                        for count in [0, 1, 2, 3, 5, 11, 21, 101] {
                            let operands = PluralOperands(count)
                            let selected = catalog.lookup(key, in: name, chain: chain, plural: .count(operands)).value
                            if try answer.value(for: .count(operands)) != selected {
                                found.append("\(place): count \(count) selects differently")
                            }
                        }
                        let counts: [PluralOperands?] = [PluralOperands(1), PluralOperands(21), nil]
                        if try answer.value(for: .counts(counts))
                            != catalog.lookup(key, in: name, chain: chain, plural: .counts(counts)).value
                        {
                            found.append("\(place): counts select differently")
                        }
                    }
                }
            }
        }
        return found
    }

    /// `key`, then its canonical decomposition (NFD) and composition (NFC) where their
    /// bytes differ from every earlier spelling's.
    static func canonicalSpellings(of key: String) -> [String] {
        var spellings = [key]
        for spelling in [key.decomposedStringWithCanonicalMapping, key.precomposedStringWithCanonicalMapping]
        where !spellings.contains(where: { $0.utf8.elementsEqual(spelling.utf8) }) {
            spellings.append(spelling)
        }
        return spellings
    }

    /// The CRC-32C of `bytes` one bit at a time, as the definition states it.
    static func bytewiseCRC32C(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
