import Foundation
import Testing

@testable import LocalizationCore

/// `UTF16Transcoder` (the C transcoder's kernels: one unit at a time, SSSE3 shuffles,
/// AVX-512 compresses) against the standard library's transcoding, on every kernel this CPU
/// has: every length from 0 to 100 units, so every block and tail position is met, both byte
/// orders, all kinds of characters and surrogate pairs at every offset (across the 16-, 32- and
/// 64-unit blocks too), and unpaired surrogates reported with the message and location the
/// parser always gave.
@Suite struct UTF16TranscoderTests {
    /// Characters of every UTF-8 length (pairs of units for those past U+FFFF), with the
    /// edges of each length.
    static let characters: [[UInt16]] = [
        [0x41], [0x20], [0x0A], [0x00], [0x7F], [0x80], [0xE9], [0x416], [0x7FF], [0x800], [0x65E5], [0xD7FF],
        [0xE000], [0xFFFD], [0xFFFF], [0xD83D, 0xDE00], [0xD800, 0xDC00], [0xDBFF, 0xDFFF], [0xD834, 0xDD1E],
    ]

    /// Text of exactly `count` units: mostly ASCII, with a share of other characters.
    static func units(count: Int, otherShare: Int, using generator: inout SeededGenerator) -> [UInt16] {
        var units: [UInt16] = []
        while units.count < count {
            let character =
                Int.random(in: 0..<100, using: &generator) < otherShare
                ? characters.randomElement(using: &generator)! : [UInt16.random(in: 0x20..<0x7F, using: &generator)]
            // A pair that does not fit is replaced by an ASCII unit, so the length is exact.
            units += units.count + character.count <= count ? character : [0x61]
        }
        return units
    }

    static func bytes(_ units: [UInt16], bigEndian: Bool) -> [UInt8] {
        units.flatMap { unit -> [UInt8] in
            let (high, low) = (UInt8(unit >> 8), UInt8(truncatingIfNeeded: unit))
            return bigEndian ? [high, low] : [low, high]
        }
    }

    /// The kernels this CPU can run (the scalar one always).
    static let kernels = UTF16Transcoder.Kernel.allCases.filter(\.isAvailable)

    /// Expects `units`, in either byte order and with every kernel, to transcode to `expected`.
    static func expect(_ units: [UInt16], transcodeTo expected: Result<[UInt8], ResourceParseError>) {
        for kernel in kernels {
            for bigEndian in [false, true] {
                let result = transcode(bytes(units, bigEndian: bigEndian), bigEndian: bigEndian, kernel: kernel)
                #expect(result == expected, "\(units) big-endian: \(bigEndian), kernel \(kernel)")
            }
        }
    }

    /// Expects `units` (no unpaired surrogate) to transcode to the standard library's UTF-8.
    static func expectStandardUTF8(_ units: [UInt16]) {
        expect(units, transcodeTo: .success(Array(String(decoding: units, as: UTF16.self).utf8)))
    }

    static func transcode(
        _ bytes: [UInt8], bigEndian: Bool, kernel: UTF16Transcoder.Kernel
    ) -> Result<[UInt8], ResourceParseError> {
        bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(ResourceParseError) in
                try UTF16Transcoder.utf8(from: bytes, bigEndian: bigEndian, file: "t.strings", kernel: kernel)
            }
        }
    }

    /// `L10N_UTF16_KERNEL` (set to run a whole suite on a fallback) caps the kernel chosen.
    @Test func theScalarKernelIsAlwaysThereAndTheBestIsAvailable() {
        let all = UTF16Transcoder.Kernel.allCases
        #expect(UTF16Transcoder.Kernel.scalar.isAvailable)
        #expect(UTF16Transcoder.Kernel.best.isAvailable)
        let cap = ProcessInfo.processInfo.environment["L10N_UTF16_KERNEL"]
        let capIndex = all.firstIndex { "\($0)" == cap } ?? all.count - 1
        #expect(all.firstIndex(of: UTF16Transcoder.Kernel.best)! <= capIndex)
        #expect(UTF16Transcoder.Kernel.best == all.prefix(capIndex + 1).last(where: \.isAvailable))
    }

    @Test func givesTheStandardLibrarysUTF8AtEveryLength() {
        var generator = SeededGenerator(state: 1_614)
        for count in 0...100 {
            for otherShare in [0, 3, 20, 60, 100] {
                for _ in 0..<4 {
                    Self.expectStandardUTF8(Self.units(count: count, otherShare: otherShare, using: &generator))
                }
            }
        }
    }

    /// Whole blocks of one kind (what the vector kernels take without a branch per unit), at
    /// lengths around the 16-, 32- and 64-unit steps, and alone or after ASCII.
    @Test func blocksOfOneLengthAndTheirEdges() {
        let kinds: [(name: String, unit: (Int) -> UInt16)] = [
            ("ASCII", { UInt16(0x20 + $0 % 0x5F) }), ("NUL and DEL", { $0 % 2 == 0 ? 0 : 0x7F }),
            ("two bytes", { UInt16(0x80 + $0 * 37 % 0x780) }), ("three bytes", { UInt16(0x800 + $0 * 997 % 0xD000) }),
            ("the edges", { [0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF][$0 % 7] }),
            ("alternating", { $0 % 2 == 0 ? 0x41 : ($0 % 4 == 1 ? 0x416 : 0x65E5) }),
        ]
        for (_, unit) in kinds {
            for count in [1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 95, 96, 97, 127, 128, 129, 200] {
                let block = (0..<count).map(unit)
                Self.expectStandardUTF8(block)
                for prefix in [1, 7, 16, 31] {
                    Self.expectStandardUTF8(Array(repeating: 0x61, count: prefix) + block)
                }
            }
        }
    }

    /// A surrogate pair whose halves sit in two blocks of every kernel (at units 7/8, 15/16,
    /// 31/32, 63/64 and the ones near them), in ASCII, two- and three-byte text.
    @Test func pairsSplitAcrossBlocks() {
        for filler: UInt16 in [0x61, 0xE9, 0x65E5] {
            for high in [6, 7, 8, 14, 15, 16, 30, 31, 32, 33, 62, 63, 64, 95] {
                for count in [high + 2, high + 3, 96, 130] where count >= high + 2 {
                    var units = [UInt16](repeating: filler, count: count)
                    units[high] = 0xD83D
                    units[high + 1] = 0xDE00
                    Self.expectStandardUTF8(units)
                }
            }
        }
    }

    /// Long texts mostly of one kind with others scattered through, as translations are.
    @Test func longMixedTexts() {
        var generator = SeededGenerator(state: 32)
        for otherShare in [1, 5, 30, 70, 100] {
            for count in [1_000, 4_099] {
                Self.expectStandardUTF8(Self.units(count: count, otherShare: otherShare, using: &generator))
            }
        }
    }

    @Test func unpairedSurrogatesStopWhereTheyAre() {
        var generator = SeededGenerator(state: 2_024)
        for count in 0...100 {
            for place in Set([
                0, count / 2, max(count - 1, 0), min(31, count), min(32, count),
                Int.random(in: 0...count, using: &generator),
            ]) {
                for lone: [UInt16] in [[0xD800], [0xDBFF], [0xDC00], [0xDFFF], [0xDFFF, 0xD800], [0xD83D, 0x41]] {
                    var units = Self.units(count: count, otherShare: 30, using: &generator)
                    // The pairs around it left out, so nothing pairs with the lone one.
                    let before = units[..<place].filter { $0 & 0xF800 != 0xD800 }
                    units = before + lone + units[place...].filter { $0 & 0xF800 != 0xD800 }
                    let valid = Array(String(decoding: before, as: UTF16.self).utf8)
                    let location = valid.withUnsafeBufferPointer {
                        StringsParser.location(of: $0.count, in: $0, file: "t.strings")
                    }
                    let expected = ResourceParseError(
                        location: location,
                        message: "invalid UTF-16: unpaired surrogate 0x\(String(lone[0], radix: 16, uppercase: true))")
                    Self.expect(units, transcodeTo: .failure(expected))
                }
            }
        }
    }

    @Test func anOddByteCountIsAnErrorAfterTheText() {
        var generator = SeededGenerator(state: 7)
        for count in 0...40 {
            let units = Self.units(count: count, otherShare: 30, using: &generator)
            let valid = Array(String(decoding: units, as: UTF16.self).utf8)
            let location = valid.withUnsafeBufferPointer {
                StringsParser.location(of: $0.count, in: $0, file: "t.strings")
            }
            let expected = ResourceParseError(
                location: location,
                message: "the file ends in the middle of a UTF-16 character (it has an odd number of bytes)")
            for kernel in Self.kernels {
                let bytes = Self.bytes(units, bigEndian: false) + [0x41]
                #expect(Self.transcode(bytes, bigEndian: false, kernel: kernel) == .failure(expected))
            }
        }
    }
}
