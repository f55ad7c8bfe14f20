/// Finds out how a `.strings` file's bytes are encoded and gives the parser UTF-8.
///
/// The parser works on UTF-8 only: UTF-16 input is transcoded once, up front, so every later
/// step (and every line and column, which count Unicode scalars) is the same for both.
enum StringsTextDecoder {
    /// How the bytes of a file are encoded, and how many bytes of byte order mark to skip.
    enum Encoding: Equatable {
        case utf8(bomLength: Int)
        case utf16(bigEndian: Bool, bomLength: Int)
    }

    /// The encoding of `bytes`: a UTF-8 or UTF-16 byte order mark decides; without one, a zero
    /// in the first two bytes means UTF-16 (ASCII text in UTF-16 has a zero high byte, and
    /// UTF-8 text never contains a zero byte there), big-endian when the zero comes first.
    static func detectEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Encoding {
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return .utf8(bomLength: 3) }
        if count >= 2 {
            switch (bytes[0], bytes[1]) {
            case (0xFF, 0xFE): return .utf16(bigEndian: false, bomLength: 2)
            case (0xFE, 0xFF): return .utf16(bigEndian: true, bomLength: 2)
            case (0, _): return .utf16(bigEndian: true, bomLength: 0)
            case (_, 0): return .utf16(bigEndian: false, bomLength: 0)
            default: break
            }
        }
        return .utf8(bomLength: 0)
    }

    /// The offset of the first byte that does not begin a well-formed UTF-8 sequence (overlong
    /// forms and encoded surrogates included), or `nil` when all of `text` is valid.
    ///
    /// The parser validates as it goes (the standard library checks strings as it builds them);
    /// this finds the exact bad byte once something was found wrong.
    static func firstInvalidUTF8(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        var index = 0
        while index < count {
            // Most of a .strings file is ASCII: check eight bytes at a time while it lasts.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { return nil }
            if base[index] < 0x80 {
                index += 1
                continue
            }
            guard let length = utf8SequenceLength(at: index, in: text) else { return index }
            index += length
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence starting at `index`, or `nil` when the
    /// bytes there are not one (a stray continuation byte, an overlong form, an encoded
    /// surrogate, a value past U+10FFFF, or a sequence cut short).
    @inline(__always)
    static func utf8SequenceLength(at index: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let lead = text[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: return nil
        }
        guard index + length <= text.count else { return nil }
        let second = text[index + 1]
        guard second >= low, second <= high else { return nil }
        if length > 2 {
            guard text[index + 2] & 0xC0 == 0x80 else { return nil }
            if length > 3 {
                guard text[index + 3] & 0xC0 == 0x80 else { return nil }
            }
        }
        return length
    }

    /// `text` as UTF-16 in the given byte order, transcoded to UTF-8.
    ///
    /// An odd byte count or an unpaired surrogate is an error located at the character where
    /// it happens; nothing is silently replaced.
    static func transcodeUTF16(
        _ text: UnsafeBufferPointer<UInt8>, bigEndian: Bool, file: String?
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
            var out = 0
            var index = 0
            while index < unitCount {
                // ASCII runs eight units at a time: one vector load, one test, and the low
                // bytes stored together. The eight are stored even when one is not ASCII (the
                // output has room: at most 3 bytes a unit so far, 8 units still to come), and
                // the ASCII ones before it are kept.
                while index &+ 8 <= unitCount {
                    var units = UnsafeRawPointer(source + 2 &* index).loadUnaligned(as: SIMD8<UInt16>.self)
                    if swapped { units = units &<< 8 | units &>> 8 }
                    UnsafeMutableRawPointer(target + out).storeBytes(
                        of: SIMD8<UInt8>(truncatingIfNeeded: units), as: SIMD8<UInt8>.self)
                    let halves = unsafeBitCast(units, to: SIMD2<UInt64>.self)
                    let low = UInt64(littleEndian: halves[0]) & 0xFF80_FF80_FF80_FF80
                    let high = UInt64(littleEndian: halves[1]) & 0xFF80_FF80_FF80_FF80
                    if low | high == 0 {
                        out &+= 8
                        index &+= 8
                        continue
                    }
                    let ascii = low != 0 ? low.trailingZeroBitCount &>> 4 : 4 &+ high.trailingZeroBitCount &>> 4
                    out &+= ascii
                    index &+= ascii
                    break
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

    /// Appends the UTF-8 form of the scalar value `scalar` (which must be valid) to `output`.
    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
