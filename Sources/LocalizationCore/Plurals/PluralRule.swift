/// One CLDR plural rule condition (`i = 1 and v = 0`, `n % 10 = 2..4 and n % 100 != 12..14`),
/// parsed from the rule syntax of UTS #35 and evaluated against ``PluralOperands``.
///
/// Rules come from CLDR's data (``CLDRPluralData``), never typed in by hand; an empty
/// condition (the `other` rule) is always true.
public struct PluralRule: Sendable, Hashable {
    /// The operand letters of the syntax.
    enum Operand: String, Sendable, Hashable {
        case n, i, v, w, f, t, c, e
    }

    /// `operand [% modulus] (= | !=) ranges`.
    struct Relation: Sendable, Hashable {
        var operand: Operand
        var modulus: UInt64?
        var negated: Bool
        var ranges: [ClosedRange<UInt64>]
    }

    /// Disjunction of conjunctions of relations, as the syntax nests them.
    let alternatives: [[Relation]]
    /// The condition as written, samples stripped.
    public let text: String

    /// Parses a rule's condition; anything after `@` (the samples) is ignored.
    /// Throws a ``PluralRuleSyntaxError`` naming what it could not read.
    public init(_ source: String) throws(PluralRuleSyntaxError) {
        let condition = source.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        text = condition.trimmingSpaces
        var tokens = Self.tokens(text)[...]
        var alternatives: [[Relation]] = []
        var current: [Relation] = []
        while !tokens.isEmpty {
            current.append(try Self.relation(&tokens, in: text))
            guard let next = tokens.first else { break }
            tokens = tokens.dropFirst()
            switch next {
            case "and": continue
            case "or":
                alternatives.append(current)
                current = []
            default: throw PluralRuleSyntaxError(rule: text, message: "expected 'and' or 'or', found '\(next)'")
            }
        }
        if !current.isEmpty { alternatives.append(current) }
        self.alternatives = alternatives
    }

    /// Whether `operands` satisfy the condition (an empty condition always does).
    public func matches(_ operands: PluralOperands) -> Bool {
        alternatives.isEmpty || alternatives.contains { $0.allSatisfy { Self.holds($0, for: operands) } }
    }

    private static func holds(_ relation: Relation, for operands: PluralOperands) -> Bool {
        // `n` is the only operand that may carry a fraction; a fractional `n` equals no
        // integer and lies in no integer range.
        let value: UInt64?
        switch relation.operand {
        case .n: value = operands.isWhole ? operands.integer : nil
        case .i: value = operands.integer
        case .v: value = UInt64(operands.visibleFractionDigits)
        case .w: value = UInt64(operands.trimmedFractionDigits)
        case .f: value = operands.fraction
        case .t: value = operands.trimmedFraction
        case .c, .e: value = UInt64(operands.exponent)
        }
        let contained: Bool
        if let value {
            let reduced = relation.modulus.map { value % $0 } ?? value
            contained = relation.ranges.contains { $0.contains(reduced) }
        } else {
            contained = false
        }
        return contained != relation.negated
    }

    private static func relation(_ tokens: inout ArraySlice<String>, in rule: String) throws(PluralRuleSyntaxError)
        -> Relation
    {
        guard let name = tokens.popFirst(), name.count == 1, let operand = Operand(rawValue: name) else {
            throw PluralRuleSyntaxError(rule: rule, message: "expected an operand (n i v w f t c e)")
        }
        var modulus: UInt64?
        if tokens.first == "%" {
            tokens = tokens.dropFirst()
            guard let text = tokens.popFirst(), let value = UInt64(text), value > 0 else {
                throw PluralRuleSyntaxError(rule: rule, message: "expected a modulus after '%'")
            }
            modulus = value
        }
        let negated: Bool
        switch tokens.popFirst() {
        case "=": negated = false
        case "!=": negated = true
        default: throw PluralRuleSyntaxError(rule: rule, message: "expected '=' or '!=' after operand \(name)")
        }
        var ranges: [ClosedRange<UInt64>] = []
        repeat {
            if !ranges.isEmpty { tokens = tokens.dropFirst() }  // the ','
            guard let low = tokens.popFirst().flatMap({ UInt64($0) }) else {
                throw PluralRuleSyntaxError(rule: rule, message: "expected a number in the range list")
            }
            var high = low
            if tokens.first == ".." {
                tokens = tokens.dropFirst()
                guard let value = tokens.popFirst().flatMap({ UInt64($0) }), value >= low else {
                    throw PluralRuleSyntaxError(rule: rule, message: "expected the end of a range after '..'")
                }
                high = value
            }
            ranges.append(low...high)
        } while tokens.first == ","
        return Relation(operand: operand, modulus: modulus, negated: negated, ranges: ranges)
    }

    /// Words, numbers and the symbols `% = != .. ,`.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var scalars = text.unicodeScalars[...]
        while let first = scalars.first {
            if first.properties.isWhitespace {
                scalars = scalars.dropFirst()
            } else if first == "!" || first == ".", scalars.dropFirst().first == (first == "!" ? "=" : ".") {
                tokens.append(first == "!" ? "!=" : "..")
                scalars = scalars.dropFirst(2)
            } else if "%=,".unicodeScalars.contains(first) {
                tokens.append(String(first))
                scalars = scalars.dropFirst()
            } else {
                let word = scalars.prefix { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
                if word.isEmpty {
                    tokens.append(String(first))
                    scalars = scalars.dropFirst()
                } else {
                    tokens.append(String(String.UnicodeScalarView(word)))
                    scalars = scalars.dropFirst(word.count)
                }
            }
        }
        return tokens
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace.
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
