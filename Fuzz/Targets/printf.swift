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

/// The input's bytes as random numbers, 8 at a time; zeros past the end.
struct InputRandom: RandomNumberGenerator {
    var bytes: [UInt8]
    var offset = 0

    mutating func next() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 {
            value = value << 8 | UInt64(offset < bytes.count ? bytes[offset] : 0)
            offset += 1
        }
        return value
    }
}
