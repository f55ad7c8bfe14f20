/// Transcodes a UTF-16 `.strings` file into the UTF-8 the scanner reads, in one pass.
///
/// Most of a file is ASCII (comments, keys, English text) even in a Japanese or Russian
/// translation: 97 % of the IINA corpus's UTF-16 units. Thirty-two ASCII units are converted
/// with four vector loads, one test and two stores; where other characters are near, eight
/// units at a time are stored and as many kept as are ASCII, and the others are encoded one
/// at a time until the next ASCII unit.
///
/// What the other 3 % cost is most of the time left (the same corpus with them replaced by
/// ASCII transcodes four to five times as fast). Encoding them without a branch on their
/// length (each unit's bytes computed as one 32-bit word, written whole) was not faster here,
/// nor was encoding a whole eight-unit block at once: Swift's vectors on baseline x86-64 have
/// no byte shuffle, and the eight words are stored one by one either way.
enum UTF16Transcoder {
    /// `text` as UTF-16 in the given byte order, transcoded to UTF-8.
    ///
    /// An odd byte count or an unpaired surrogate is an error located at the character where
    /// it happens; nothing is silently replaced.
    static func utf8(
        from text: UnsafeBufferPointer<UInt8>, bigEndian: Bool, file: String?
    ) throws(ResourceParseError) -> [UInt8] {
        let unitCount = text.count / 2
        // Why the text stops being valid UTF-16 (where the output ends); nil when all is well.
        var failure: String?
        // Three UTF-8 bytes per UTF-16 unit at most (a surrogate pair takes four for two).
        let output = [UInt8](unsafeUninitializedCapacity: unitCount * 3) { buffer, initialized in
            guard let source = text.baseAddress, let target = buffer.baseAddress else { return }
            // Units are read in the machine's byte order and swapped when the file's differs.
            let swapped = bigEndian != (1.bigEndian == 1)
            func unit(_ index: Int) -> UInt16 {
                let raw = UnsafeRawPointer(source + 2 &* index).loadUnaligned(as: UInt16.self)
                return swapped ? raw.byteSwapped : raw
            }
            func units(_ index: Int) -> SIMD8<UInt16> {
                let raw = UnsafeRawPointer(source + 2 &* index).loadUnaligned(as: SIMD8<UInt16>.self)
                return swapped ? raw &<< 8 | raw &>> 8 : raw
            }
            var out = 0
            var index = 0
            while index < unitCount {
                // The output has room for every store below: `out` is at most three bytes a
                // unit read so far, and at least as many units as are stored are still to come.
                if index &+ 32 <= unitCount {
                    let a = units(index)
                    let b = units(index &+ 8)
                    let c = units(index &+ 16)
                    let d = units(index &+ 24)
                    if isASCII(a | b | c | d) {
                        store(a, b, at: target + out)
                        store(c, d, at: target + (out &+ 16))
                        out &+= 32
                        index &+= 32
                        continue
                    }
                }
                if index &+ 8 <= unitCount {
                    // All eight are stored, and as many as are ASCII before the first other
                    // one are kept.
                    let block = units(index)
                    UnsafeMutableRawPointer(target + out).storeBytes(
                        of: SIMD8<UInt8>(truncatingIfNeeded: block), as: SIMD8<UInt8>.self)
                    let ascii = asciiPrefix(block)
                    out &+= ascii
                    index &+= ascii
                    if ascii == 8 { continue }
                }
                // Then one unit at a time while they are not ASCII (a run of Cyrillic or
                // Japanese text), or to the end once fewer than eight are left.
                while index < unitCount {
                    let value = unit(index)
                    if value < 0x80, index &+ 8 <= unitCount { break }
                    index &+= 1
                    switch value {
                    case 0..<0x80:
                        target[out] = UInt8(truncatingIfNeeded: value)
                        out &+= 1
                    case 0x80..<0x800:
                        target[out] = UInt8(truncatingIfNeeded: 0xC0 | value &>> 6)
                        target[out &+ 1] = UInt8(truncatingIfNeeded: 0x80 | value & 0x3F)
                        out &+= 2
                    case 0xD800..<0xDC00 where index < unitCount && unit(index) & 0xFC00 == 0xDC00:
                        let scalar = 0x10000 &+ (UInt32(value & 0x3FF) &<< 10 | UInt32(unit(index) & 0x3FF))
                        index &+= 1
                        target[out] = UInt8(truncatingIfNeeded: 0xF0 | scalar &>> 18)
                        target[out &+ 1] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 12 & 0x3F)
                        target[out &+ 2] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 6 & 0x3F)
                        target[out &+ 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
                        out &+= 4
                    case 0xD800..<0xE000:
                        failure = "invalid UTF-16: unpaired surrogate 0x\(String(value, radix: 16, uppercase: true))"
                        initialized = out
                        return
                    default:
                        target[out] = UInt8(truncatingIfNeeded: 0xE0 | value &>> 12)
                        target[out &+ 1] = UInt8(truncatingIfNeeded: 0x80 | value &>> 6 & 0x3F)
                        target[out &+ 2] = UInt8(truncatingIfNeeded: 0x80 | value & 0x3F)
                        out &+= 3
                    }
                }
            }
            initialized = out
        }
        if failure == nil, text.count % 2 != 0 {
            failure = "the file ends in the middle of a UTF-16 character (it has an odd number of bytes)"
        }
        if let failure {
            // The error is where the valid text ends.
            let location = output.withUnsafeBufferPointer {
                StringsParser.location(of: $0.count, in: $0, file: file)
            }
            throw ResourceParseError(location: location, message: failure)
        }
        return output
    }

    /// Whether every unit of `units` is below 0x80.
    @inline(__always)
    private static func isASCII(_ units: SIMD8<UInt16>) -> Bool {
        let halves = unsafeBitCast(units, to: SIMD2<UInt64>.self)
        return (halves[0] | halves[1]) & 0xFF80_FF80_FF80_FF80 == 0
    }

    /// How many units of `units` are below 0x80 before the first that is not (8 when all are).
    @inline(__always)
    private static func asciiPrefix(_ units: SIMD8<UInt16>) -> Int {
        let halves = unsafeBitCast(units, to: SIMD2<UInt64>.self)
        let low = UInt64(littleEndian: halves[0]) & 0xFF80_FF80_FF80_FF80
        let high = UInt64(littleEndian: halves[1]) & 0xFF80_FF80_FF80_FF80
        return low != 0 ? low.trailingZeroBitCount &>> 4 : 4 &+ high.trailingZeroBitCount &>> 4
    }

    /// Stores the sixteen ASCII units of `first` and `second` as sixteen bytes at `target`.
    @inline(__always)
    private static func store(_ first: SIMD8<UInt16>, _ second: SIMD8<UInt16>, at target: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(target).storeBytes(
            of: SIMD16<UInt8>(truncatingIfNeeded: SIMD16<UInt16>(lowHalf: first, highHalf: second)),
            as: SIMD16<UInt8>.self)
    }
}
