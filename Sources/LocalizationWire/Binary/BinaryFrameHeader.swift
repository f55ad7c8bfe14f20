/// The six bytes that open every binary frame: magic, version, payload length.
///
/// ```text
/// byte 0     0xA5  magic: not ASCII and not a UTF-8 lead byte, so no JSON text starts with it
/// byte 1     0x01  frame format version
/// bytes 2-5  payload length, unsigned 32-bit big-endian, excluding these six bytes
/// ```
package enum BinaryFrameHeader {
    /// The first byte of every frame.
    package static let magic: UInt8 = 0xA5
    /// The frame format version this build reads and writes.
    package static let version: UInt8 = 0x01
    /// The header's size in bytes.
    package static let size = 6

    /// Writes a header for a payload of `length` bytes into `bytes` at `offset`.
    static func write(length: Int, into bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = magic
        bytes[offset + 1] = version
        let length = UInt32(truncatingIfNeeded: length)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: length >> 24)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: length >> 16)
        bytes[offset + 4] = UInt8(truncatingIfNeeded: length >> 8)
        bytes[offset + 5] = UInt8(truncatingIfNeeded: length)
    }
}
