import Testing

@testable import LocalizationCore

/// The two whole-text passes in front of the `.strings` scanner: `UTF8Validation` (which
/// decides whether strings and comments are checked one by one) must say "valid" exactly
/// when the scanner's own check finds nothing, and `UTF16Transcoder` must give the standard
/// library's UTF-8 for any text, at every length around its 8- and 16-unit steps.
@Suite struct TextEncodingFastPathTests {
    /// Pieces that put every kind of sequence (and every kind of damage) at every offset.
    static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("plain ascii text ".utf8), Array("é".utf8), Array("日".utf8), Array("😀".utf8),
        Array("Ж".utf8), [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        // Damage: stray continuation bytes, overlong forms, surrogates, past U+10FFFF, bytes
        // never used, and sequences cut short.
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98],
        [0xE6, 0x41, 0x80],
    ]

    @Test func validationAgreesWithTheScannersCheck() {
        var generator = SeededGenerator(state: 14)
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            let count = Int.random(in: 0...(round % 4 == 0 ? 40 : 8), using: &generator)
            for _ in 0..<count {
                // Mostly well-formed pieces, so long valid texts with one flaw are common.
                let piece =
                    Int.random(in: 0..<10, using: &generator) < 8
                    ? Self.pieces[Int.random(in: 0..<13, using: &generator)]
                    : Self.pieces.randomElement(using: &generator)!
                bytes += piece
            }
            let expected = bytes.withUnsafeBufferPointer { StringsTextDecoder.firstInvalidUTF8(in: $0) == nil }
            let actual = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
            #expect(actual == expected, "\(bytes.map { String($0, radix: 16) })")
            #expect(expected == (String(validating: bytes, as: UTF8.self) != nil))
        }
    }

    @Test func validationChecksTheBytesAroundEveryVector() {
        // One bad byte at every offset of a text longer than several vectors, and a sequence
        // cut short at its very end.
        let valid = Array(String(repeating: "ab日é😀 ", count: 8).utf8)
        #expect(valid.withUnsafeBufferPointer { UTF8Validation.isValid($0) })
        for offset in valid.indices {
            var damaged = valid
            damaged[offset] = 0xFF
            #expect(!damaged.withUnsafeBufferPointer { UTF8Validation.isValid($0) }, "0xFF at \(offset)")
        }
        for cut in 1...3 {
            let cutShort = Array(valid + Array("😀".utf8).dropLast(cut))
            #expect(!cutShort.withUnsafeBufferPointer { UTF8Validation.isValid($0) })
        }
    }

    @Test func transcodingMatchesTheStandardLibrary() throws {
        let characters: [String] = [
            "a", "Z", " ", "\n", "é", "Ж", "ß", "日", "本", "한", "😀", "𝄞", "\u{7F}", "\u{80}", "\u{7FF}",
            "\u{800}", "\u{FFFF}", "\u{E000}", "\u{D7FF}",
        ]
        var generator = SeededGenerator(state: 16)
        for round in 0..<4_000 {
            var text = ""
            let count = Int.random(in: 0...(round % 8 == 0 ? 200 : 70), using: &generator)
            // Long ASCII stretches broken by a few other characters, as in real files.
            let otherShare = [0, 2, 10, 50, 100][round % 5]
            for _ in 0..<count {
                text +=
                    Int.random(in: 0..<100, using: &generator) < otherShare
                    ? characters.randomElement(using: &generator)!
                    : characters[Int.random(in: 0..<4, using: &generator)]
            }
            for bigEndian in [false, true] {
                let units = text.utf16.flatMap { unit -> [UInt8] in
                    let (high, low) = (UInt8(unit >> 8), UInt8(truncatingIfNeeded: unit))
                    return bigEndian ? [high, low] : [low, high]
                }
                let utf8 = try units.withUnsafeBufferPointer { (bytes) throws(ResourceParseError) -> [UInt8] in
                    try UTF16Transcoder.utf8(from: bytes, bigEndian: bigEndian, file: nil)
                }
                #expect(utf8 == Array(text.utf8), "\(text.debugDescription)")
            }
        }
    }

    @Test func unpairedSurrogatesAreErrorsWhereverTheyAre() {
        for length in [0, 1, 7, 8, 9, 31, 32, 33, 40] {
            for surrogate: UInt16 in [0xD800, 0xDBFF, 0xDC00, 0xDFFF] {
                let units = Array(repeating: UInt16(0x41), count: length) + [surrogate] + [0x42]
                let bytes = units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
                #expect(throws: ResourceParseError.self) {
                    try bytes.withUnsafeBufferPointer { (bytes) throws(ResourceParseError) in
                        _ = try UTF16Transcoder.utf8(from: bytes, bigEndian: false, file: nil)
                    }
                }
            }
        }
    }
}
