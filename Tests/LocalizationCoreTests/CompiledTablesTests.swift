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
        #expect(FNV1a64.hash("") == 0xCBF2_9CE4_8422_2325)
        #expect(FNV1a64.hash("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(FNV1a64.hash("foobar") == 0x8594_4171_F739_67E8)
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
                for language in languages {
                    let chain = catalog.chain([language])
                    for key in keys {
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
                            if try answer.value(forCount: operands) != selected {
                                found.append("\(place): count \(count) selects differently")
                            }
                        }
                        let counts: [PluralOperands?] = [PluralOperands(1), PluralOperands(21), nil]
                        if try answer.value(forCounts: counts)
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
