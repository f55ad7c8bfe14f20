/// The hash of a compiled segment's key index (docs/FORMAT.md): eight bytes at a time, so a
/// 20-byte key costs three multiplications where a bytewise hash (FNV-1a, format 1) cost
/// twenty dependent ones, about a third of an in-cache lookup.
///
/// Start from `0xCBF29CE484222325 XOR n` (`n` the key's length in bytes); for each group of
/// eight bytes, read as a little-endian `UInt64` (the last group padded with zero bytes):
/// `h = (h XOR w) × M mod 2⁶⁴`, then `h = h XOR (h >> 29)`; finally `h = h × M mod 2⁶⁴`,
/// `h = h XOR (h >> 32)`, with `M = 0x9E3779B97F4A7C15`. Unseeded, so a C or Python reader
/// computes the same; the index takes the low bits for the first slot and keeps the high 32
/// bits in the slot, so a probe compares a key's bytes only when those agree.
package enum CompiledKeyHash {
    /// The hash's starting value, before the length is mixed in.
    package static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The multiplier.
    package static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The hash of `bytes`, and whether they are all ASCII (below `0x80`): a lookup that
    /// misses tries the key's canonical form only when they are not.
    @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> (hash: UInt64, isASCII: Bool) {
        let count = bytes.count
        var hash = offsetBasis ^ UInt64(truncatingIfNeeded: count)
        var high: UInt64 = 0
        guard let base = bytes.baseAddress else { return (finish(hash), true) }
        var index = 0
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            high |= word
            hash = mix(hash, word)
            index &+= 8
        }
        let rest = count &- index
        if rest > 0 {
            var word: UInt64
            if count >= 8 {
                // The last eight bytes, shifted so that the ones already hashed fall off.
                let last = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
                word = last &>> UInt64(8 &* (8 &- rest))
            } else {
                word = 0
                for position in 0..<rest {
                    word |= UInt64(base.load(fromByteOffset: position, as: UInt8.self)) &<< UInt64(8 &* position)
                }
            }
            high |= word
            hash = mix(hash, word)
        }
        return (finish(hash), high & 0x8080_8080_8080_8080 == 0)
    }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)).hash }
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let product = (hash ^ word) &* multiplier
        return product ^ (product &>> 29)
    }

    @inline(__always)
    private static func finish(_ hash: UInt64) -> UInt64 {
        let product = hash &* multiplier
        return product ^ (product &>> 32)
    }
}
