/// Reads the daemon's binary reply frames (docs/PROTOCOL.md, "Binary frames") from raw
/// bytes, as far as the end-to-end tests need: frame boundaries and error codes.
enum BinaryFrames {
    /// The payload of each frame in `bytes`, or nil when they are not whole frames.
    static func payloads(of bytes: [UInt8]) -> [[UInt8]]? {
        var payloads: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 6, bytes[offset] == 0xA5, bytes[offset + 1] == 0x01 else { return nil }
            let length = Int(integer(bytes, at: offset + 2))
            guard bytes.count - offset - 6 >= length else { return nil }
            payloads.append(Array(bytes[(offset + 6)..<(offset + 6 + length)]))
            offset += 6 + length
        }
        return payloads
    }

    /// The code of an error reply payload (kind `0xEE`, id, code `str`, message `str`).
    static func errorCode(_ payload: [UInt8]) -> String? {
        guard payload.count >= 9, payload[0] == 0xEE else { return nil }
        let length = Int(integer(payload, at: 5))
        guard payload.count - 9 >= length else { return nil }
        return String(validating: payload[9..<(9 + length)], as: UTF8.self)
    }

    /// A big-endian `u32` at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
