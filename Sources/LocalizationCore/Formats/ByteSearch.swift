internal import CTextTranscoding

/// Finds the next byte a scanner must look at, a block of bytes at a time.
///
/// The loops over strings and comments stop only at a few bytes (a quote, a backslash, `*`, a
/// line break); a few vector comparisons answer for a whole block whether any of them is one,
/// so single bytes are looked at only where they matter. The block is 64 bytes with AVX-512
/// BW or 32 with AVX2 (in C, `CTextTranscoding`'s `byte_search.h`, chosen at run time; see
/// ``Kernel``), sixteen with Swift's own vectors (SSE2 on x86-64, NEON on ARM) elsewhere.
enum ByteSearch {
    /// The ways to search; every one gives the same offset. Only a kernel the CPU has
    /// (`isAvailable`) may be passed to `firstStop`.
    enum Kernel: CaseIterable {
        /// Sixteen bytes per step with Swift's vectors, on any CPU.
        case portable
        /// 32 bytes per step with AVX2.
        case avx2
        /// 64 bytes per step with AVX-512 BW.
        case avx512

        /// The fastest kernel this CPU has, unless the environment variable
        /// `L10N_SCAN_KERNEL` (`portable`, `avx2`, `avx512`) names a slower one.
        static var best: Kernel { Kernel(l10n_byte_search_best_kernel()) }

        /// Whether this CPU can run the kernel.
        var isAvailable: Bool { l10n_byte_search_kernel_available(cKernel) }

        fileprivate var cKernel: l10n_byte_search_kernel {
            switch self {
            case .portable: L10N_BYTE_SEARCH_PORTABLE
            case .avx2: L10N_BYTE_SEARCH_AVX2
            case .avx512: L10N_BYTE_SEARCH_AVX512
            }
        }

        private init(_ kernel: l10n_byte_search_kernel) {
            self = Kernel.allCases.first { $0.cKernel == kernel } ?? .portable
        }
    }

    private typealias Vector = SIMD16<UInt8>

    /// The offset of the first byte from `start` that is `first`, `second`, a control character
    /// below 0x0E (line breaks among them) or, if `orNonASCII`, not ASCII; `text.count` when
    /// none is. `sawNonASCII` becomes `true` if a byte passed over (or one after the one found,
    /// in the same block) is not ASCII, and is left as it was otherwise.
    @inline(__always)
    static func firstStop(
        in text: UnsafeBufferPointer<UInt8>, from start: Int, at first: UInt8, _ second: UInt8, orNonASCII: Bool,
        sawNonASCII: inout Bool, kernel: Kernel
    ) -> Int {
        // The C kernels are called straight, one call per search (no dispatch in C).
        guard kernel != .portable, let base = text.baseAddress else {
            return portableFirstStop(
                in: text, from: start, at: first, second, orNonASCII: orNonASCII, sawNonASCII: &sawNonASCII)
        }
        if kernel == .avx512 {
            return l10n_first_stop_avx512(base, start, text.count, first, second, orNonASCII, &sawNonASCII)
        }
        return l10n_first_stop_avx2(base, start, text.count, first, second, orNonASCII, &sawNonASCII)
    }

    /// `firstStop` sixteen bytes at a time, with Swift's vectors. Inlined, as it was before
    /// the C kernels: called, it made the whole pass about a tenth slower on machines that use
    /// it.
    @inline(__always)
    static func portableFirstStop(
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
