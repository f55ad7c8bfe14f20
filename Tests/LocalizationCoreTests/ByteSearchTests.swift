import Foundation
import Testing

@testable import LocalizationCore

/// `ByteSearch`'s kernels, each against a byte-at-a-time search, around the edges of their
/// blocks (16, 32 and 64 bytes from where a search starts) and at the end of the text.
@Suite struct ByteSearchTests {
    /// `L10N_SCAN_KERNEL` (set to run a whole suite on a fallback) caps the kernel chosen.
    @Test func thePortableKernelIsAlwaysThereAndTheBestIsAvailable() {
        let all = ByteSearch.Kernel.allCases
        #expect(ByteSearch.Kernel.portable.isAvailable)
        #expect(ByteSearch.Kernel.best.isAvailable)
        let cap = ProcessInfo.processInfo.environment["L10N_SCAN_KERNEL"]
        let capIndex = all.firstIndex { "\($0)" == cap } ?? all.count - 1
        #expect(all.firstIndex(of: ByteSearch.Kernel.best)! <= capIndex)
        #expect(ByteSearch.Kernel.best == all.prefix(capIndex + 1).last(where: \.isAvailable))
    }

    /// What every kernel must give: the first stop, and whether a byte before it is not ASCII.
    private static func reference(
        _ text: [UInt8], from start: Int, orNonASCII: Bool
    ) -> (stop: Int, nonASCIIBefore: Bool) {
        var nonASCII = false
        for index in start..<text.count {
            let byte = text[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x0E || (orNonASCII && byte >= 0x80) {
                return (index, nonASCII)
            }
            if byte >= 0x80 { nonASCII = true }
        }
        return (text.count, nonASCII)
    }

    private static func expectAgreement(_ text: [UInt8], from start: Int, kernel: ByteSearch.Kernel) {
        for orNonASCII in [false, true] {
            let expected = reference(text, from: start, orNonASCII: orNonASCII)
            var sawNonASCII = false
            let stop = text.withUnsafeBufferPointer { text in
                ByteSearch.firstStop(
                    in: text, from: start, at: 0x22, 0x5C, orNonASCII: orNonASCII, sawNonASCII: &sawNonASCII,
                    kernel: kernel)
            }
            #expect(stop == expected.stop, "\(kernel) from \(start) in \(text.count) bytes")
            // A non-ASCII byte passed over must be noted; one noted must be in the block searched.
            if expected.nonASCIIBefore { #expect(sawNonASCII, "\(kernel) from \(start)") }
            if sawNonASCII {
                #expect(text[start..<min(text.count, stop + 64)].contains { $0 >= 0x80 }, "\(kernel) from \(start)")
            }
        }
    }

    @Test(arguments: ByteSearch.Kernel.allCases.filter(\.isAvailable))
    func everyStopAtEveryPlaceAroundTheBlockEdges(kernel: ByteSearch.Kernel) {
        // Each stop byte, and a non-ASCII byte, at every place of texts ending on, before and
        // after a block's edge, searched from the start and from a few bytes in.
        let stops: [UInt8] = [0x22, 0x5C, 0x0A, 0x0D, 0x00, 0x09, 0xC3]
        for count in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 95, 127, 128, 129, 200] {
            for start in [0, 1, 3, 31, 33, 63, 64, 65] where start <= count {
                Self.expectAgreement([UInt8](repeating: 0x61, count: count), from: start, kernel: kernel)
                for place in start..<count {
                    for stop in stops {
                        var text = [UInt8](repeating: 0x61, count: count)
                        text[place] = stop
                        Self.expectAgreement(text, from: start, kernel: kernel)
                    }
                }
            }
        }
    }

    @Test(arguments: ByteSearch.Kernel.allCases.filter(\.isAvailable))
    func randomTextAgreesWithTheByteLoop(kernel: ByteSearch.Kernel) {
        var generator = SeededGenerator(state: 6_464)
        // Mostly plain letters, a few stops and non-ASCII bytes, so searches run long.
        let alphabet: [UInt8] =
            Array(repeating: 0x61, count: 60) + [0x22, 0x5C, 0x0A, 0x09, 0x0E, 0x7F, 0x80, 0xE2, 0xFF]
        for _ in 0..<300 {
            let count = Int.random(in: 0...300, using: &generator)
            let text = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            for start in stride(from: 0, through: count, by: 7) {
                Self.expectAgreement(text, from: start, kernel: kernel)
            }
        }
    }
}
