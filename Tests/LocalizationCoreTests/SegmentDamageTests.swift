import Foundation
import LocalizationCore
import TestSupport
import Testing

/// A damaged or hostile segment gives a ``SegmentError``: cut short, bytes flipped, a bad
/// checksum, offsets pointing outside their section — never a read outside the buffer, a
/// trap or an endless probe.
@Suite struct SegmentDamageTests {
    typealias Layout = SegmentLayout

    /// A segment with plain and plural entries, a stand-in and keys that are not ASCII:
    /// the example String Catalog's `ja`, laid under the example `ja` `.strings` file.
    static let bytes: [UInt8] = {
        let (_, set) = try! SegmentLookupTests.load([PackagePaths.exampleResources])
        let segments = set.allSegments.sorted { $0.bytes.count > $1.bytes.count }
        return Array(segments.first { $0.reader.keyCount > 3 }!.bytes)
    }()

    /// Every segment of the examples, as bytes: what the fuzz target's seeds are made of.
    static var exampleSegments: [[UInt8]] {
        let (_, set) = try! SegmentLookupTests.load([PackagePaths.exampleResources])
        return set.allSegments.map { Array($0.bytes) }
    }

    /// Opens `bytes` and reads every entry: key, value, plural block, and the key looked up.
    static func openAndReadAll(_ bytes: [UInt8], verifyingChecksums: Bool = true) throws {
        try bytes.withUnsafeBytes { buffer in
            let reader = try SegmentReader(buffer, verifyingChecksums: verifyingChecksums)
            for number in 0..<min(reader.keyCount, 256) {
                let key = try reader.key(of: number)
                _ = try reader.entryNumber(of: key)
                _ = try reader.value(of: number)
                _ = try reader.plural(of: number)
                _ = try reader.isSourceKeyStandIn(number)
            }
            for key in ["多言語化", "Cafe\u{301}", "missing"] { _ = try reader.entryNumber(of: key) }
        }
    }

    /// `bytes` with both checksums made right again, so the bounds checks meet the damage.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= Layout.headerLength else { return bytes }
        var copy = bytes
        let body = copy.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[Layout.headerLength...]))
        }
        copy.replaceSubrange(28..<32, with: withUnsafeBytes(of: body.littleEndian, Array.init))
        copy.replaceSubrange(24..<28, with: [0, 0, 0, 0])
        let header = copy.withUnsafeBytes {
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<Layout.headerLength]))
        }
        copy.replaceSubrange(24..<28, with: withUnsafeBytes(of: header.littleEndian, Array.init))
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
            #expect(throws: SegmentError.self) { try Self.openAndReadAll(Array(Self.bytes.prefix(length))) }
        }
    }

    @Test func foreignMagicAndVersionsAreRefused() {
        var magic = Self.bytes
        magic[0] = UInt8(ascii: "X")
        #expect(throws: SegmentError.badMagic) { try Self.openAndReadAll(magic) }
        for major in [Layout.majorVersion - 1, Layout.majorVersion + 1] {
            var version = Self.bytes
            version[8] = UInt8(major)
            #expect(throws: SegmentError.unsupportedVersion(major: major, minor: 0)) {
                try Self.openAndReadAll(version)
            }
        }
    }

    @Test func aFlippedByteAnywhereFailsAChecksum() {
        for offset in stride(from: 8, to: Self.bytes.count, by: max(1, Self.bytes.count / 300)) {
            var damaged = Self.bytes
            damaged[offset] ^= 0x10
            #expect(throws: SegmentError.self, "byte \(offset)") { try Self.openAndReadAll(damaged) }
        }
    }

    @Test func sectionsOutsideTheBufferAreRefused() {
        for field in [Layout.Header.strings, Layout.Header.slotsOffset, Layout.Header.entriesOffset] {
            for value in [UInt64(Self.bytes.count), UInt64.max, 3] {
                var damaged = Self.bytes
                damaged.replaceSubrange(field..<(field + 8), with: Self.u64(value))
                #expect(throws: SegmentError.self, "field \(field) = \(value)") {
                    try Self.openAndReadAll(Self.resealed(damaged))
                }
            }
        }
    }

    @Test func everyWordOfTheBodyOutOfRangeThrowsOrAnswers() {
        // Checksums skipped: each read must throw or answer, never trap.
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

    @Test func fullSlotsWithNoEmptyOneEndTheProbe() throws {
        // Every slot taken by a tag no key has: a probe must stop after one pass.
        let slots = Int(
            Self.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Layout.Header.slotsOffset, as: UInt64.self) })
        let count = Int(
            Self.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Layout.Header.slotCount, as: UInt32.self) })
        var damaged = Self.bytes
        for slot in 0..<count {
            damaged.replaceSubrange(
                (slots + slot * 16)..<(slots + slot * 16 + 8), with: Self.u64(1 << 32 | 0x1234_5678))
        }
        #expect(
            try damaged.withUnsafeBytes { try SegmentReader($0, verifyingChecksums: false).entryNumber(of: "zz") }
                == nil)
    }

    @Test func randomDamageNeverTraps() {
        var mutator = ByteMutator(seed: 21)
        for _ in 0..<3000 {
            let damaged = mutator.damaged(Self.bytes)
            _ = try? Self.openAndReadAll(damaged, verifyingChecksums: false)
            _ = try? Self.openAndReadAll(Self.resealed(damaged))
        }
    }
}

/// The fuzz target's committed seeds (`Fuzz/Seeds/segment`) are whole segments of the
/// current format: rewrite them from the examples when the format changes.
@Suite struct SegmentFuzzSeedTests {
    static let directory = PackagePaths.root + "/Fuzz/Seeds/segment"

    @Test func theSeedsAreWholeSegments() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory)
        #expect(names.count >= 3)
        for name in names {
            let bytes = try #require(FileManager.default.contents(atPath: Self.directory + "/" + name))
            #expect(throws: Never.self, "\(name)") { try SegmentDamageTests.openAndReadAll(Array(bytes)) }
        }
    }
}
