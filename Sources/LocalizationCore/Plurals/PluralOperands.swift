/// The operands CLDR's plural rules test (UTS #35, "Plural Operand Meanings"), computed
/// from a number as it is written: `1` and `1.0` differ (`v` is 0 or 1), so English says
/// "1 file" but "1.0 files".
///
/// ```swift
/// let operands = PluralOperands("1.50")!   // n 1.5, i 1, v 2, w 1, f 50, t 5
/// ```
public struct PluralOperands: Sendable, Hashable, CustomStringConvertible {
    /// `i`: the integer digits of the absolute value.
    public let integer: UInt64
    /// `f`: the visible fraction digits, with trailing zeros, as an integer.
    public let fraction: UInt64
    /// `t`: the visible fraction digits without trailing zeros, as an integer.
    public let trimmedFraction: UInt64
    /// `v`: how many fraction digits are visible, trailing zeros included.
    public let visibleFractionDigits: Int
    /// `w`: how many fraction digits are visible, trailing zeros excluded.
    public let trimmedFractionDigits: Int
    /// `c` (and its synonym `e`): the compact decimal exponent (`1.2c3` is 1200 with `c` 3).
    public let exponent: Int
    /// The number as written, for messages.
    public let description: String

    /// Digits past this are not representable exactly; such numbers are refused.
    static let maximumDigits = 18

    /// Reads a decimal as CLDR writes its samples: an optional `-`, digits, an optional
    /// `.` and fraction digits, an optional `c` or `e` exponent (`1.0000001c6`).
    /// `nil` for anything else, or more than 18 digits on either side.
    public init?(_ text: String) {
        var body = Substring(text)
        if body.first == "-" { body = body.dropFirst() }
        var exponent = 0
        if let marker = body.firstIndex(where: { $0 == "c" || $0 == "e" }) {
            let digits = body[body.index(after: marker)...]
            guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy(\.isPlainDigit), let value = Int(digits) else {
                return nil
            }
            exponent = value
            body = body[..<marker]
        }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var integerDigits = String(parts[0])
        var fractionDigits = parts.count > 1 ? String(parts[1]) : ""
        guard !integerDigits.isEmpty, integerDigits.allSatisfy(\.isPlainDigit),
            fractionDigits.allSatisfy(\.isPlainDigit),
            parts.count == 1 || !fractionDigits.isEmpty
        else { return nil }
        // The exponent moves the point right: `1.2c3` is 1200, with no fraction left.
        for _ in 0..<exponent {
            if let first = fractionDigits.first {
                integerDigits.append(first)
                fractionDigits.removeFirst()
            } else {
                integerDigits.append("0")
            }
        }
        while integerDigits.count > 1, integerDigits.first == "0" { integerDigits.removeFirst() }
        guard integerDigits.count <= Self.maximumDigits, fractionDigits.count <= Self.maximumDigits,
            let integer = UInt64(integerDigits)
        else { return nil }
        let trimmed = String(fractionDigits.reversed().drop(while: { $0 == "0" }).reversed())
        self.integer = integer
        self.fraction = UInt64(fractionDigits) ?? 0
        self.trimmedFraction = UInt64(trimmed) ?? 0
        self.visibleFractionDigits = fractionDigits.count
        self.trimmedFractionDigits = trimmed.count
        self.exponent = exponent
        self.description = text
    }

    /// The operands of a whole number (`v` is 0).
    public init(_ value: Int) {
        integer = UInt64(value.magnitude)
        fraction = 0
        trimmedFraction = 0
        visibleFractionDigits = 0
        trimmedFractionDigits = 0
        exponent = 0
        description = String(value)
    }

    /// The operands of a floating-point count, written in its shortest form without a
    /// trailing `.0` — as ICU's `uplrules_select` on a double sees it (1.0 is "1", 1.5 is
    /// "1.5"). Infinite and NaN values, and those too large, count as `other`-only 0.5.
    public init(_ value: Double) {
        if value.isFinite, value.rounded() == value, value.magnitude < 1e18 {
            self.init(Int(value))
        } else if value.isFinite, let operands = PluralOperands(Self.plainDecimal(value)) {
            self = operands
        } else {
            self = PluralOperands("0.5")!
        }
    }

    /// `n`'s value is a whole number (no non-zero visible fraction digit).
    var isWhole: Bool { trimmedFraction == 0 }

    /// `value` in plain decimal notation (Swift's `description` switches to `1e-05`).
    private static func plainDecimal(_ value: Double) -> String {
        let text = value.magnitude.description
        guard let marker = text.firstIndex(of: "e"), let power = Int(text[text.index(after: marker)...]) else {
            return text
        }
        let mantissa = text[..<marker].replacing(".", with: "")
        let pointAfter = 1 + power
        if pointAfter <= 0 { return "0." + String(repeating: "0", count: -pointAfter) + mantissa }
        if pointAfter >= mantissa.count { return mantissa + String(repeating: "0", count: pointAfter - mantissa.count) }
        return String(mantissa.prefix(pointAfter)) + "." + String(mantissa.dropFirst(pointAfter))
    }
}

extension Character {
    fileprivate var isPlainDigit: Bool { ("0"..."9").contains(self) }
}
