/// Writes compact JSON into a byte buffer.
///
/// Hand-written because replies are the daemon's hot path: strings are copied in runs and
/// only the bytes that need it are escaped. Control characters, `"` and `\` are escaped as
/// JSON requires; U+2028 and U+2029 are escaped too, so a reply is also a valid JavaScript
/// string literal and no line-oriented reader ever splits one.
struct JSONWriter {
    var bytes: [UInt8]

    init(reservingCapacity capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: WireValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let bool): writeRaw(bool ? "true" : "false")
        case .integer(let integer): write(integer)
        case .double(let double): write(double)
        case .string(let string): write(string)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                writeMember(key, first: &first)
                write(value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `,"key":` (without the comma for the first member).
    mutating func writeMember(_ key: String, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        write(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes ASCII text that needs no escaping (literals, punctuation).
    mutating func writeRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ bool: Bool) {
        writeRaw(bool ? "true" : "false")
    }

    mutating func write(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        write(unsigned: integer.magnitude)
    }

    mutating func write(unsigned value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        // 20 digits hold UInt64.max; fill from the end, then copy the used part.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            var rest = value
            while rest > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: buffer[index...])
        }
    }

    mutating func write(_ double: Double) {
        guard double.isFinite else {
            writeRaw("null")
            return
        }
        // Swift prints the shortest text that reads back as the same Double, and its forms
        // ("1.0", "1.5", "1e-05", "1.2e+30") are all valid JSON numbers that read back as
        // doubles, not integers.
        bytes.append(contentsOf: double.description.utf8)
    }

    mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { source in
            var runStart = 0
            var index = 0
            let count = source.count
            while index < count {
                let byte = source[index]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xE2 {
                    index += 1
                    continue
                }
                if byte == 0xE2 {
                    // U+2028 is E2 80 A8, U+2029 is E2 80 A9.
                    guard index + 2 < count, source[index + 1] == 0x80,
                        source[index + 2] == 0xA8 || source[index + 2] == 0xA9
                    else {
                        index += 1
                        continue
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                    bytes.append(contentsOf: source[index + 2] == 0xA8 ? "\\u2028".utf8 : "\\u2029".utf8)
                    index += 3
                    runStart = index
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                appendEscape(for: byte)
                index += 1
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }
}
