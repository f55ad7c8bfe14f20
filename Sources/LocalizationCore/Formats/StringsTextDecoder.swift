/// Finds out how a `.strings` file's bytes are encoded and gives the parser UTF-8.
///
/// The parser works on UTF-8 only: UTF-16 input is transcoded once, up front
/// (``UTF16Transcoder``), so every later step (and every line and column, which count Unicode
/// scalars) is the same for both.
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
