/// FNV-1a, 64 bits: the hash of the compiled tables' key index (docs/FORMAT.md).
///
/// Start from `0xCBF29CE484222325`; for each UTF-8 byte of the key, XOR it in, then
/// multiply by `0x100000001B3` modulo 2⁶⁴. Chosen because a C or Python reader computes it
/// in three lines; the index takes the low bits for the first slot and keeps the high 32
/// bits in the slot, so a probe compares a key's bytes only when those agree.
package enum FNV1a64 {
    /// The hash's starting value.
    package static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The multiplier.
    package static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash of `bytes`.
    @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}
