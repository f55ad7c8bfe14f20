import Glibc

/// Reads the binary encoding's primitives from a payload, checking every length against
/// the bytes actually present before using it, so a lying count cannot make it read out of
/// bounds or allocate more than the payload could hold.
struct BinaryReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - position }

    func error(_ reason: String) -> WireError {
        WireError(code: .badRequest, message: "malformed binary frame at payload byte \(position): \(reason)")
    }

    private func need(_ count: Int, _ what: @autoclosure () -> String) throws(WireError) {
        guard count <= remaining else { throw error("truncated \(what())") }
    }

    mutating func readByte(_ what: @autoclosure () -> String = "byte") throws(WireError) -> UInt8 {
        try need(1, what())
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readBool(_ what: @autoclosure () -> String = "flag") throws(WireError) -> Bool {
        switch try readByte(what()) {
        case 0: return false
        case 1: return true
        default:
            position -= 1
            throw error("\(what()) must be 0 or 1")
        }
    }

    mutating func readUInt32(_ what: @autoclosure () -> String = "integer") throws(WireError) -> UInt32 {
        try need(4, what())
        defer { position += 4 }
        return UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16
            | UInt32(bytes[position + 2]) << 8 | UInt32(bytes[position + 3])
    }

    mutating func readUInt64(_ what: @autoclosure () -> String = "integer") throws(WireError) -> UInt64 {
        let high = try readUInt32(what())
        let low = try readUInt32(what())
        return UInt64(high) << 32 | UInt64(low)
    }

    /// Reads a count of items each at least `minimumItemSize` bytes long, refusing counts
    /// the remaining payload cannot hold.
    mutating func readCount(_ what: @autoclosure () -> String, minimumItemSize: Int) throws(WireError) -> Int {
        let count = Int(try readUInt32("\(what()) count"))
        guard count <= remaining / max(minimumItemSize, 1) else {
            throw error("\(what()) count \(count) exceeds the payload")
        }
        return count
    }

    mutating func readString(_ what: @autoclosure () -> String = "string") throws(WireError) -> String {
        let length = Int(try readUInt32("\(what()) length"))
        try need(length, what())
        let utf8 = UnsafeBufferPointer(rebasing: bytes[position..<(position + length)])
        guard let string = Self.validString(utf8) else {
            throw error("\(what()) is not valid UTF-8")
        }
        position += length
        return string
    }

    /// `utf8` as a string, or `nil` when it is not valid UTF-8.
    ///
    /// Decoded by the standard library's non-generic path, which replaces each invalid
    /// sequence with U+FFFD, then compared with the input: the two are the same bytes exactly
    /// when nothing was replaced. `String(validating:as:)` takes a generic path that looks up
    /// type metadata and appends scalar by scalar: a tenth of the daemon's time per lookup.
    static func validString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        var string = String(decoding: utf8, as: UTF8.self)
        let unchanged = string.withUTF8 { decoded in
            decoded.count == utf8.count
                && (utf8.isEmpty || memcmp(decoded.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
        }
        return unchanged ? string : nil
    }

    mutating func readStrings(_ what: @autoclosure () -> String) throws(WireError) -> [String] {
        let count = try readCount(what(), minimumItemSize: 4)
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count { strings.append(try readString(what())) }
        return strings
    }

    mutating func readValue(depth: Int = 0) throws(WireError) -> WireValue {
        guard depth <= WireValue.maximumDepth else { throw error("value nested too deeply") }
        switch try readByte("value tag") {
        case 0x00: return .null
        case 0x01: return .bool(false)
        case 0x02: return .bool(true)
        case 0x03: return .integer(Int64(bitPattern: try readUInt64("integer value")))
        case 0x04:
            let double = Double(bitPattern: try readUInt64("double value"))
            guard double.isFinite else { throw error("double value is not finite") }
            return .double(double)
        case 0x05: return .string(try readString("string value"))
        case 0x06:
            let count = try readCount("array", minimumItemSize: 1)
            var array: [WireValue] = []
            array.reserveCapacity(count)
            for _ in 0..<count { array.append(try readValue(depth: depth + 1)) }
            return .array(array)
        case 0x07:
            let count = try readCount("object", minimumItemSize: 5)
            var object: [String: WireValue] = [:]
            object.reserveCapacity(count)
            for _ in 0..<count {
                let key = try readString("member name")
                object[key] = try readValue(depth: depth + 1)
            }
            return .object(object)
        default:
            position -= 1
            throw error("unknown value tag")
        }
    }

    /// Whether every byte was read: an optional trailing field is absent.
    var isAtEnd: Bool { remaining == 0 }

    func expectEnd() throws(WireError) {
        guard remaining == 0 else { throw error("\(remaining) unexpected trailing bytes") }
    }
}
