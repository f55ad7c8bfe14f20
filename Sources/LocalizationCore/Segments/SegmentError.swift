/// Why a segment cannot be built or read: a reader given damaged or foreign bytes reports
/// one of these and never reads outside its buffer; a build that cannot get its memory
/// reports ``outOfMemory(bytes:)`` for that one segment.
package enum SegmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the header, or than the length the header states.
    case truncated(expected: Int, actual: Int)
    /// The first eight bytes are not `L10NDSEG`.
    case badMagic
    /// A major version this reader does not know.
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// The header's or the body's CRC-32C differs from the one stored.
    case checksumMismatch(part: String, stored: UInt32, computed: UInt32)
    /// An offset, length or count points outside its section or the buffer.
    case outOfBounds(String)
    /// The segment is too big for the format's 32-bit offsets and counts.
    case tooLarge(String)
    /// The memory for the segment (`bytes` of it) could not be had.
    case outOfMemory(bytes: Int)
    /// The buffer given to write into is smaller than the segment.
    case bufferTooSmall(needed: Int, available: Int)

    /// The error in words, for logs and test failures.
    package var description: String {
        switch self {
        case .truncated(let expected, let actual): "segment truncated: \(actual) bytes where \(expected) are needed"
        case .badMagic: "not a segment: the magic is not L10NDSEG"
        case .unsupportedVersion(let major, let minor): "segment version \(major).\(minor) is not supported"
        case .checksumMismatch(let part, let stored, let computed):
            "segment \(part) checksum mismatch: stored \(Self.hex(stored)), computed \(Self.hex(computed))"
        case .outOfBounds(let what): "segment damaged: \(what) is out of bounds"
        case .tooLarge(let what): "segment too large: \(what)"
        case .outOfMemory(let bytes): "segment not built: \(bytes) bytes of memory could not be allocated"
        case .bufferTooSmall(let needed, let available): "segment needs \(needed) bytes; the buffer has \(available)"
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
