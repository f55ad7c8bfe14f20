/// Damages bytes the same way on every run, for tests that feed readers broken input.
///
/// A fixed-seed generator (SplitMix64) keeps a failure reproducible: the same iteration
/// damages the same bytes next time.
struct ByteMutator {
    private var state: UInt64

    /// Creates a mutator; equal seeds give equal sequences.
    init(seed: UInt64) {
        state = seed
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }

    /// `bytes` with one to four bytes overwritten, and half of the time cut short.
    mutating func damaged(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var copy = bytes
        for _ in 0..<(1 + below(4)) {
            copy[below(copy.count)] = UInt8(truncatingIfNeeded: next())
        }
        if next() % 2 == 0 {
            copy.removeLast(below(copy.count))
        }
        return copy
    }
}
