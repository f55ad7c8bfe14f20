/// Why compiled tables cannot be written or read: a reader given damaged or foreign bytes
/// reports one of these and never reads outside its buffer.
package enum CompiledTablesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the header, or than the length the header states.
    case truncated(expected: Int, actual: Int)
    /// The first eight bytes are not `L10NDTBL`.
    case badMagic
    /// A major version this reader does not know.
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// The header's or the body's CRC-32C differs from the one stored.
    case checksumMismatch(part: String, stored: UInt32, computed: UInt32)
    /// An offset, length or count points outside its section or the buffer.
    case outOfBounds(String)
    /// The tables are too big for the format's 32-bit string offsets or record numbers.
    case tooLarge(String)
    /// The buffer given to write into is smaller than the tables.
    case bufferTooSmall(needed: Int, available: Int)
    /// The writer's caller stopped it before it finished (its catalog was superseded).
    case abandoned

    /// The error in words, for logs and test failures.
    package var description: String {
        switch self {
        case .truncated(let expected, let actual):
            "compiled tables truncated: \(actual) bytes where \(expected) are needed"
        case .badMagic: "not compiled tables: the magic is not L10NDTBL"
        case .unsupportedVersion(let major, let minor): "compiled tables version \(major).\(minor) is not supported"
        case .checksumMismatch(let part, let stored, let computed):
            "compiled tables \(part) checksum mismatch: stored \(hex(stored)), computed \(hex(computed))"
        case .outOfBounds(let what): "compiled tables damaged: \(what) is out of bounds"
        case .tooLarge(let what): "compiled tables too large: \(what)"
        case .bufferTooSmall(let needed, let available):
            "compiled tables need \(needed) bytes; the buffer has \(available)"
        case .abandoned: "compiling the tables was abandoned"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
