/// Appends the binary encoding's primitives (big-endian integers, length-prefixed UTF-8)
/// to a frame whose header is patched in once the payload length is known.
struct BinaryWriter {
    private(set) var bytes: [UInt8]
    /// Where the frame's header starts in `bytes`.
    private let frameStart: Int

    /// Starts a frame: reserves room for the header.
    init(reservingCapacity capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity + BinaryFrameHeader.size)
        frameStart = 0
        bytes.append(contentsOf: repeatElement(0, count: BinaryFrameHeader.size))
    }

    /// Starts a frame at the end of `bytes` (a connection's output), so it is written there
    /// in place rather than built apart and copied.
    init(appendingTo bytes: consuming [UInt8]) {
        self.bytes = bytes
        frameStart = self.bytes.count
        self.bytes.append(contentsOf: repeatElement(0, count: BinaryFrameHeader.size))
    }

    /// The finished frame, header included (after whatever the writer was given to append to).
    mutating func finish() -> [UInt8] {
        BinaryFrameHeader.write(
            length: bytes.count - frameStart - BinaryFrameHeader.size, into: &bytes, at: frameStart)
        return bytes
    }

    mutating func write(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func write(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func write(_ value: UInt64) {
        write(UInt32(truncatingIfNeeded: value >> 32))
        write(UInt32(truncatingIfNeeded: value))
    }

    mutating func write(count: Int) {
        write(UInt32(truncatingIfNeeded: count))
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            write(count: utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func write(_ strings: [String]) {
        write(count: strings.count)
        for string in strings { write(string) }
    }

    /// A free-form value: a tag byte, then the tag's content (see `docs/PROTOCOL.md`).
    mutating func write(_ value: WireValue) {
        switch value {
        case .null: write(0x00 as UInt8)
        case .bool(let bool): write(bool ? 0x02 : 0x01 as UInt8)
        case .integer(let integer):
            write(0x03 as UInt8)
            write(UInt64(bitPattern: integer))
        case .double(let double):
            write(0x04 as UInt8)
            write(double.bitPattern)
        case .string(let string):
            write(0x05 as UInt8)
            write(string)
        case .array(let array):
            write(0x06 as UInt8)
            write(count: array.count)
            for element in array { write(element) }
        case .object(let object):
            write(0x07 as UInt8)
            write(count: object.count)
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                write(key)
                write(value)
            }
        }
    }
}
