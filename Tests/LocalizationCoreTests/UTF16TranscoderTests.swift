import Testing

@testable import LocalizationCore

/// `UTF16Transcoder` (the C transcoder with byte shuffles) against the standard library's
/// transcoding: every length from 0 to 100 units, so every block and tail position is met,
/// both byte orders, all kinds of characters and surrogate pairs at every offset, and
/// unpaired surrogates reported with the message and location the parser always gave.
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

    /// Expects `units`, in either byte order, to transcode to `expected`.
    static func expect(_ units: [UInt16], transcodeTo expected: Result<[UInt8], ResourceParseError>) {
        for bigEndian in [false, true] {
            let result = transcode(bytes(units, bigEndian: bigEndian), bigEndian: bigEndian)
            #expect(result == expected, "\(units) big-endian: \(bigEndian)")
        }
    }

    static func transcode(_ bytes: [UInt8], bigEndian: Bool) -> Result<[UInt8], ResourceParseError> {
        bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(ResourceParseError) in
                try UTF16Transcoder.utf8(from: bytes, bigEndian: bigEndian, file: "t.strings")
            }
        }
    }

    @Test func givesTheStandardLibrarysUTF8AtEveryLength() {
        var generator = SeededGenerator(state: 1_614)
        for count in 0...100 {
            for otherShare in [0, 3, 20, 60, 100] {
                for _ in 0..<4 {
                    let units = Self.units(count: count, otherShare: otherShare, using: &generator)
                    let expected = Array(String(decoding: units, as: UTF16.self).utf8)
                    Self.expect(units, transcodeTo: .success(expected))
                }
            }
        }
    }

    @Test func unpairedSurrogatesStopWhereTheyAre() {
        var generator = SeededGenerator(state: 2_024)
        for count in 0...100 {
            for place in Set([0, count / 2, max(count - 1, 0), Int.random(in: 0...count, using: &generator)]) {
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
            #expect(
                Self.transcode(Self.bytes(units, bigEndian: false) + [0x41], bigEndian: false) == .failure(expected))
        }
    }
}
