/// A 64-bit FNV-1a hash as 16 hex digits: the same for the same parts on every run and
/// machine (Swift's `Hasher` is seeded per process). It tells values apart; it is no secret.
public enum StableHash {
    /// The hash of `parts`, each with a marker for "none" (`nil`) and an end, so `["ab"]`,
    /// `["a", "b"]` and `[nil]` all differ.
    public static func hex(_ parts: [String?]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        for part in parts {
            if let part {
                add(1)
                for byte in part.utf8 { add(byte) }
            }
            add(0)
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
