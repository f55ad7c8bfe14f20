import Foundation
import LocalizationCore
import Testing

/// What the segment suites share: the checksum and key hash a segment uses, checked against
/// their published values, and the helpers the Python reader's comparisons need.
@Suite struct SegmentTestSupport {
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

    /// The CRC-32C of `bytes` one bit at a time, as the definition states it.
    static func bytewiseCRC32C(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    /// `key` as given, decomposed and composed (NFD, NFC), each spelling once.
    static func canonicalSpellings(of key: String) -> [String] {
        var spellings = [key]
        for spelling in [key.decomposedStringWithCanonicalMapping, key.precomposedStringWithCanonicalMapping]
        where !spellings.contains(where: { $0.utf8.elementsEqual(spelling.utf8) }) {
            spellings.append(spelling)
        }
        return spellings
    }

    /// The Python interpreter the reader's comparisons run.
    static func python() throws -> String {
        try #require(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "python3 is needed (scripts/install-dependencies installs it)")
    }

    /// A plural entry as the Python reader prints it (JSON), as a ``PluralFormat``.
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
