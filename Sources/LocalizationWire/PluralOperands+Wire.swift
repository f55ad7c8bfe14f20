public import LocalizationCore

extension PluralOperands {
    /// The count as a 64-bit integer when it is written as one (no fraction digits, no
    /// exponent): what the wire carries as a number; anything else goes as decimal text,
    /// so `1.50` keeps its two visible fraction digits.
    public var wireInteger: Int64? {
        // Only a count written the way the integer prints (not `001`, `-0` or `+1`): what is
        // decoded must encode to the same bytes.
        guard visibleFractionDigits == 0, exponent == 0, let integer = Int64(description),
            String(integer) == description
        else { return nil }
        return integer
    }

    /// A count from a request: an integer, a JSON number with a fraction, or decimal text
    /// (`"1.50"`); nil for anything else.
    static func fromWire(_ value: WireValue) -> PluralOperands? {
        switch value {
        case .integer(let integer): PluralOperands(Int(clamping: integer))
        case .double(let double) where double.isFinite: PluralOperands(double)
        case .string(let text): PluralOperands(text)
        default: nil
        }
    }
}
