import LocalizationCore
import TestSupport
import Testing

/// Damaged compiled tables give a ``CompiledTablesError``: cut short, bytes flipped, a bad
/// checksum, offsets pointing outside their section — never a read outside the buffer.
@Suite struct CompiledTablesDamageTests {
    typealias Layout = CompiledTablesLayout

    static let bytes: [UInt8] = {
        let catalog = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        return try! CompiledTablesWriter(catalog: catalog, generation: 5).bytes
    }()

    /// Opens `bytes` and looks up every key of every compiled table in every language.
    static func openAndReadAll(_ bytes: [UInt8], verifyingChecksums: Bool = true) throws {
        try bytes.withUnsafeBytes { buffer in
            let tables = try CompiledTables(buffer, verifyingChecksums: verifyingChecksums)
            for table in tables.tables {
                for language in tables.languages {
                    for key in ["多言語化", "保存", "%d files in %d folders", "missing"] {
                        let answer = try tables.lookup(key, language: language, table: table)
                        _ = try answer?.plural?.format()
                    }
                }
            }
        }
    }

    /// `bytes` with its checksums made right again, so the reader's bounds checks are what
    /// meets the damage.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= Layout.headerLength else { return bytes }
        var copy = bytes
        let body = copy.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[Layout.headerLength...]))
        }
        copy.replaceSubrange(36..<40, with: withUnsafeBytes(of: body.littleEndian, Array.init))
        copy.replaceSubrange(32..<36, with: [0, 0, 0, 0])
        let header = copy.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<Layout.headerLength]))
        }
        copy.replaceSubrange(32..<36, with: withUnsafeBytes(of: header.littleEndian, Array.init))
        return copy
    }

    static func u64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    @Test func undamagedBytesReadWhole() throws {
        try Self.openAndReadAll(Self.bytes)
    }

    @Test func truncatedBytesAreRefused() {
        for length in [
            0, 7, 64, Layout.headerLength - 1, Layout.headerLength, Self.bytes.count / 2, Self.bytes.count - 1,
        ] {
            #expect(throws: CompiledTablesError.self) { try Self.openAndReadAll(Array(Self.bytes.prefix(length))) }
        }
    }

    @Test func foreignMagicAndVersionsAreRefused() {
        var magic = Self.bytes
        magic[0] = UInt8(ascii: "X")
        #expect(throws: CompiledTablesError.badMagic) { try Self.openAndReadAll(magic) }
        // Format 1 (bytewise keys, FNV-1a) and a later one.
        for major in [Layout.majorVersion - 1, Layout.majorVersion + 1] {
            var version = Self.bytes
            version[8] = UInt8(major)
            #expect(throws: CompiledTablesError.unsupportedVersion(major: major, minor: 0)) {
                try Self.openAndReadAll(version)
            }
        }
    }

    @Test func aFlippedByteAnywhereFailsAChecksum() {
        for offset in stride(from: 0, to: Self.bytes.count, by: max(1, Self.bytes.count / 300)) where offset >= 8 {
            var damaged = Self.bytes
            damaged[offset] ^= 0x10
            #expect(throws: CompiledTablesError.self, "byte \(offset)") { try Self.openAndReadAll(damaged) }
        }
    }

    @Test func aWrongStoredChecksumIsNamed() throws {
        var damaged = Self.bytes
        damaged[36] ^= 1
        do {
            try Self.openAndReadAll(damaged)
            Issue.record("a wrong body checksum was accepted")
        } catch let error as CompiledTablesError {
            guard case .checksumMismatch(let part, _, _) = error else { throw error }
            // The header's checksum covers the body's, so the header is the part named.
            #expect(part == "header")
        }
        // The header right (its checksum recomputed), the body's stale.
        damaged = Self.bytes
        damaged[damaged.count - 1] ^= 1
        damaged = Self.resealedHeaderOnly(damaged)
        #expect(
            throws: CompiledTablesError.checksumMismatch(
                part: "body", stored: Self.storedBodyChecksum(damaged), computed: Self.computedBodyChecksum(damaged))
        ) {
            try Self.openAndReadAll(damaged)
        }
    }

    @Test func sectionsOutsideTheBufferAreRefused() {
        for field in [
            Layout.Header.strings, Layout.Header.languages, Layout.Header.tables, Layout.Header.cells,
            Layout.Header.records,
        ] {
            for value in [UInt64(Self.bytes.count), UInt64.max, 3] {
                var damaged = Self.bytes
                damaged.replaceSubrange(field..<(field + 8), with: Self.u64(value))
                #expect(throws: CompiledTablesError.self, "field \(field) = \(value)") {
                    try Self.openAndReadAll(Self.resealed(damaged))
                }
            }
        }
    }

    @Test func offsetsInsideTheBodyOutOfRangeAreRefusedWithoutChecksums() throws {
        // Every 8-byte word of the body set to values that point out of range, checksums
        // skipped: each read must throw or answer, never trap.
        let probes: [UInt64] = [0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF, 0x7FFF_FFFF_0000_0000, UInt64(Self.bytes.count)]
        var refused = 0
        for offset in stride(from: Layout.headerLength, to: Self.bytes.count - 8, by: 8) {
            for probe in probes {
                var damaged = Self.bytes
                damaged.replaceSubrange(offset..<(offset + 8), with: Self.u64(probe))
                do { try Self.openAndReadAll(damaged, verifyingChecksums: false) } catch { refused += 1 }
            }
        }
        #expect(refused > 0)
    }

    @Test func handlesFromOtherTablesAreCheckedNotTrusted() throws {
        let catalog = ResourceSet.load(roots: [PackagePaths.exampleResources]).catalog
        let small = try CompiledTablesWriter(catalog: catalog, languages: [try LanguageTag("ja")], generation: 1).bytes
        try Self.bytes.withUnsafeBytes { large in
            try small.withUnsafeBytes { small in
                let big = try CompiledTables(large)
                let little = try CompiledTables(small)
                let language = try #require(big.languages.last)
                for table in big.tables {
                    #expect(throws: CompiledTablesError.self) {
                        try little.lookup("多言語化", language: language, table: table)
                    }
                }
            }
        }
    }

    @Test func randomDamageNeverTraps() {
        var mutator = ByteMutator(seed: 14)
        for _ in 0..<3000 {
            let damaged = mutator.damaged(Self.bytes)
            _ = try? Self.openAndReadAll(damaged, verifyingChecksums: false)
            _ = try? Self.openAndReadAll(Self.resealed(damaged))
        }
    }

    static func resealedHeaderOnly(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(32..<36, with: [0, 0, 0, 0])
        let header = copy.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<Layout.headerLength]))
        }
        copy.replaceSubrange(32..<36, with: withUnsafeBytes(of: header.littleEndian, Array.init))
        return copy
    }

    static func storedBodyChecksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 36, as: UInt32.self)) }
    }

    static func computedBodyChecksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[Layout.headerLength...])) }
    }
}
