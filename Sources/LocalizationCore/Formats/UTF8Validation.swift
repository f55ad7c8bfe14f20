internal import CTextTranscoding

/// Whether a whole text is well-formed UTF-8, sixteen bytes at a time, without finding where
/// it is not.
///
/// `StringsParser` asks this once per file: a valid file (nearly every one) is then scanned
/// without checking a single string or comment, and only a file that fails is scanned with
/// the checks that locate its first bad byte. Checking each string with non-ASCII bytes as
/// it ended took a fifth of a UTF-8 parse, most of it branches per character.
///
/// Every byte is checked against the three before it, so no step needs to know where a
/// character starts: a continuation byte (`10xxxxxx`) must be exactly where a lead byte
/// before it asks for one (one after `C2`–`DF`, two after `E0`–`EF`, three after `F0`–`F4`);
/// `C0`, `C1` and `F5`–`FF` never appear; and the byte after `E0`, `ED`, `F0` and `F4` is in the
/// range that excludes overlong forms, surrogates and values past U+10FFFF. The three bytes
/// before each vector are a second, overlapping load, so no vector is shifted; a vector
/// holding only ASCII with only ASCII before it is skipped after one test.
///
/// Where the CPU has AVX2, the same rules are checked 32 bytes at a time in C first
/// (`l10n_utf8_check_blocks`, in `CTextTranscoding`: Swift's vectors on baseline x86-64 are
/// sixteen bytes), which halves the steps and their branches; the loop here checks the rest.
enum UTF8Validation {
    private typealias Vector = SIMD16<UInt8>

    /// Whether all of `text` is well-formed UTF-8 (the same answer as
    /// `StringsTextDecoder.firstInvalidUTF8(in:) == nil`).
    static func isValid(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        let count = text.count
        // The first three bytes have fewer than three before them: checked one by one, with
        // what comes before the text taken as ASCII.
        let head = min(count, 3)
        for index in 0..<head where isBad(at: index, in: base, count: count) { return false }
        var index = l10n_utf8_check_blocks(base, head, count)
        if index == Int(bitPattern: UInt(SIZE_MAX)) { return false }
        var errors = Vector(repeating: 0)
        while index &+ 16 <= count {
            let bytes = UnsafeRawPointer(base + index).loadUnaligned(as: Vector.self)
            let third = UnsafeRawPointer(base + (index &- 3)).loadUnaligned(as: Vector.self)
            if !hasHighBit(bytes | third) {
                index &+= 16
                continue
            }
            let first = UnsafeRawPointer(base + (index &- 1)).loadUnaligned(as: Vector.self)
            let second = UnsafeRawPointer(base + (index &- 2)).loadUnaligned(as: Vector.self)
            // Every comparison is with a whole vector: comparing with a scalar compiles into a
            // loop over the lanes.
            let continuation = bytes & Self.splat(0xC0) .== Self.splat(0x80)
            let expected =
                (first .>= Self.splat(0xC0)) .| (second .>= Self.splat(0xE0)) .| (third .>= Self.splat(0xF0))
            var bad = continuation .^ expected
            bad .|= (bytes .>= Self.splat(0xF5)) .| (bytes & Self.splat(0xFE) .== Self.splat(0xC0))
            bad .|= (first .== Self.splat(0xE0)) .& (bytes .< Self.splat(0xA0))
            bad .|= (first .== Self.splat(0xED)) .& (bytes .> Self.splat(0x9F))
            bad .|= (first .== Self.splat(0xF0)) .& (bytes .< Self.splat(0x90))
            bad .|= (first .== Self.splat(0xF4)) .& (bytes .> Self.splat(0x8F))
            errors |= Vector(repeating: 0).replacing(with: 0xFF, where: bad)
            index &+= 16
        }
        if hasHighBit(errors) { return false }
        // The last bytes one by one, then three places past the end, where a lead byte that
        // still expects a continuation byte fails.
        while index < count &+ 3 {
            if isBad(at: index, in: base, count: count) { return false }
            index &+= 1
        }
        return true
    }

    /// Whether the byte at `index` breaks a rule given the three before it; a place before
    /// the text reads as ASCII, and one past its end as an ASCII byte that ends it.
    @inline(__always)
    private static func isBad(at index: Int, in base: UnsafePointer<UInt8>, count: Int) -> Bool {
        func byte(_ offset: Int) -> UInt8 { offset >= 0 && offset < count ? base[offset] : 0 }
        let current = byte(index)
        let first = byte(index &- 1)
        let expected = first >= 0xC0 || byte(index &- 2) >= 0xE0 || byte(index &- 3) >= 0xF0
        if (current & 0xC0 == 0x80) != expected || current >= 0xF5 || current & 0xFE == 0xC0 { return true }
        switch first {
        case 0xE0: return current < 0xA0
        case 0xED: return current > 0x9F
        case 0xF0: return current < 0x90
        case 0xF4: return current > 0x8F
        default: return false
        }
    }

    @inline(__always)
    private static func splat(_ byte: UInt8) -> Vector { Vector(repeating: byte) }

    @inline(__always)
    private static func hasHighBit(_ vector: Vector) -> Bool {
        let halves = unsafeBitCast(vector, to: SIMD2<UInt64>.self)
        return (halves[0] | halves[1]) & 0x8080_8080_8080_8080 != 0
    }
}
