import Foundation
import LocalizationCore

/// Differential: l10nd's formatter against Foundation's `String(format:)` and
/// `String(format:locale:)` on this machine. The input is the randomness of
/// PrintfCaseGenerator (Tests/LocalizationCoreTests/PrintfCases.swift, the generator of the
/// seeded PrintfDifferentialTests, compiled into this target by scripts/fuzz): libFuzzer
/// explores formats by mutating it. A difference, a refusal Foundation would not make, or a
/// case l10nd should refuse and prints is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var generator = PrintfCaseGenerator(random: InputRandom(bytes: FuzzInput.bytes(data, size)))
    let testCase = generator.next()
    switch testCase.expectation {
    case .excluded: break
    case .mismatch:
        FuzzInput.require((try? testCase.l10nd()) == nil, "\(testCase): l10nd formatted what it should refuse")
    case .sameAsFoundation:
        let expected = testCase.foundation()
        let actual = try? testCase.l10nd()
        FuzzInput.require(
            actual != nil, "\(testCase): l10nd refused what Foundation prints as \(expected.debugDescription)")
        FuzzInput.require(
            actual == expected,
            "\(testCase): l10nd printed \(actual!.debugDescription), Foundation \(expected.debugDescription)")
    }
    return 0
}

/// The input's bytes as random numbers, 8 at a time; past the end, SplitMix64 seeded by
/// the input. Never a constant: `Int.random(in:using:)` rejects and draws again until a
/// number fits, which an endless run of zeros never does for some ranges.
struct InputRandom: RandomNumberGenerator {
    var bytes: [UInt8]
    var offset = 0
    var state: UInt64

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // FNV-1a of the input.
        state = bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    mutating func next() -> UInt64 {
        guard offset + 8 <= bytes.count else {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        defer { offset += 8 }
        return bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
