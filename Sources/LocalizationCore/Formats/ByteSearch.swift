/// Finds the next byte a scanner must look at, sixteen bytes at a time.
///
/// The loops over strings and comments stop only at a few bytes (a quote, a backslash, `*`, a
/// line break); a few vector comparisons (SSE2 on x86-64, NEON on ARM) answer for sixteen
/// bytes whether any of them is one, so single bytes are looked at only where they matter.
enum ByteSearch {
    private typealias Vector = SIMD16<UInt8>

    /// The offset of the first byte from `start` that is `first`, `second`, a control character
    /// below 0x0E (line breaks among them) or, if `orNonASCII`, not ASCII; `text.count` when
    /// none is. `sawNonASCII` becomes `true` if a byte passed over (or a few after the one
    /// found) is not ASCII, and is left as it was otherwise.
    @inline(__always)
    static func firstStop(
        in text: UnsafeBufferPointer<UInt8>, from start: Int, at first: UInt8, _ second: UInt8, orNonASCII: Bool,
        sawNonASCII: inout Bool
    ) -> Int {
        guard let base = text.baseAddress else { return start }
        let end = text.count
        var index = start
        let firstPattern = Vector(repeating: first)
        let secondPattern = Vector(repeating: second)
        let controlBound = Vector(repeating: 0x0E)
        let highBit = Vector(repeating: 0x80)
        var passed = Vector(repeating: 0)
        while index &+ 16 <= end {
            let bytes = UnsafeRawPointer(base + index).loadUnaligned(as: Vector.self)
            passed |= bytes
            var stops = (bytes .== firstPattern) .| (bytes .== secondPattern) .| (bytes .< controlBound)
            if orNonASCII { stops .|= bytes .>= highBit }
            let (low, high) = words(Vector(repeating: 0).replacing(with: 0xFF, where: stops))
            if low | high != 0 {
                if hasHighBit(passed) { sawNonASCII = true }
                return index &+ (low != 0 ? low.trailingZeroBitCount : 64 &+ high.trailingZeroBitCount) &>> 3
            }
            index &+= 16
        }
        if hasHighBit(passed) { sawNonASCII = true }
        while index < end {
            let byte = base[index]
            if byte == first || byte == second || byte < 0x0E { return index }
            if byte >= 0x80 {
                sawNonASCII = true
                if orNonASCII { return index }
            }
            index &+= 1
        }
        return end
    }

    /// The two halves of `vector`, its first byte lowest. (Reading the vector as integers keeps
    /// the test in two or three instructions; `any(_:)` on a mask can become a loop.)
    @inline(__always)
    private static func words(_ vector: Vector) -> (UInt64, UInt64) {
        let halves = unsafeBitCast(vector, to: SIMD2<UInt64>.self)
        return (UInt64(littleEndian: halves[0]), UInt64(littleEndian: halves[1]))
    }

    @inline(__always)
    private static func hasHighBit(_ vector: Vector) -> Bool {
        let (low, high) = words(vector)
        return (low | high) & 0x8080_8080_8080_8080 != 0
    }
}
