package import LocalizationCore

extension PluralOperands {
    /// The count as a 64-bit integer when it is written as one (no fraction digits, no
    /// exponent): what the wire carries as a number; anything else goes as decimal text,
    /// so `1.50` keeps its two visible fraction digits.
    package var wireInteger: Int64? {
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

/// How a count is spelled in a binary frame: a flag byte, then its value. A lookup's
/// has-count byte is one of these, or `3` for `counts`, a list of them.
enum BinaryCountFlag: UInt8 {
    /// No count (in `counts`: an argument that is not a number).
    case none = 0
    /// An `i64` follows.
    case integer = 1
    /// Decimal text (`str`) follows, for any count an `i64` cannot spell (`"1.50"`, `"001"`).
    case decimal = 2
}

extension BinaryWriter {
    /// `count` as a flag byte (none, integer or decimal) and its value.
    mutating func writePluralCount(_ count: PluralOperands?) {
        if let integer = count?.wireInteger {
            write(BinaryCountFlag.integer.rawValue)
            write(UInt64(bitPattern: integer))
        } else if let count {
            write(BinaryCountFlag.decimal.rawValue)
            write(count.description)
        } else {
            write(BinaryCountFlag.none.rawValue)
        }
    }
}

extension BinaryReader {
    /// The count that `flag` announces.
    mutating func readPluralCount(_ flag: BinaryCountFlag, _ what: String) throws(WireError) -> PluralOperands? {
        switch flag {
        case .none:
            return nil
        case .integer:
            return PluralOperands(Int(clamping: Int64(bitPattern: try readUInt64(what))))
        case .decimal:
            let text = try readString(what)
            guard let operands = PluralOperands(text) else {
                throw WireError(
                    code: .badRequest, message: "\(what) \(WireValue.string(text).jsonText) is not a decimal")
            }
            // One spelling per request: a count the i64 form can carry must use it.
            guard operands.wireInteger == nil else {
                throw WireError(
                    code: .badRequest, message: "\(what) \(WireValue.string(text).jsonText) must be sent as an i64")
            }
            return operands
        }
    }
}

extension JSONWriter {
    /// `count` as a JSON integer when it is one, else as decimal text (`"1.50"`).
    mutating func writePluralCount(_ count: PluralOperands) {
        if let integer = count.wireInteger { write(integer) } else { write(count.description) }
    }
}
