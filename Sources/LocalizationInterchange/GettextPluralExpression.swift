import Foundation

/// A `.po` header's `Plural-Forms: nplurals=N; plural=EXPRESSION;`, read so that import
/// knows which CLDR category each `msgstr[k]` is for, whatever formula the tool wrote
/// (Poedit's and `msginit`'s French `(n > 1)`, Crowdin's Russian, this project's own).
///
/// The expression is gettext's subset of C over the unsigned integer `n`: numbers,
/// parentheses, `!`, unary `-`, `* / %`, `+ -`, `< <= > >=`, `== !=`, `&&`, `||` and
/// `?:`, with C's precedence. It is parsed once into a tree and evaluated without
/// recursion on the input's size beyond ``maximumDepth`` levels of nesting, so a hostile
/// header cannot exhaust the stack; division by zero is an error, as in `msgfmt`.
public struct GettextPluralExpression: Sendable {
    /// `nplurals`.
    public let count: Int
    private let root: Node

    /// How deeply an expression may nest (parentheses, operators, `?:` arms).
    public static let maximumDepth = 64
    /// The longest `plural=` text read.
    public static let maximumLength = 2000

    private indirect enum Node: Sendable {
        case number(UInt64)
        case variable
        case unary(Character, Node)
        case binary(String, Node, Node)
        case conditional(Node, Node, Node)
    }

    /// Reads a `Plural-Forms` value: `nplurals=2; plural=(n > 1);`.
    /// - Throws: ``InterchangeError`` saying what is wrong with it.
    public init(header: String) throws(InterchangeError) {
        var count: Int?
        var expression: String?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            if name == "nplurals" { count = Int(value) }
            if name == "plural" { expression = value }
        }
        guard let count, (1...6).contains(count) else {
            throw InterchangeError("Plural-Forms \"\(header)\": nplurals must be a number from 1 to 6")
        }
        guard let expression, !expression.isEmpty else {
            throw InterchangeError("Plural-Forms \"\(header)\": no plural= expression")
        }
        guard expression.utf8.count <= Self.maximumLength else {
            throw InterchangeError("Plural-Forms: the plural= expression is longer than \(Self.maximumLength) bytes")
        }
        var parser = Parser(tokens: try Self.tokens(expression), text: expression)
        let root = try parser.conditional(depth: 0)
        guard parser.position == parser.tokens.count else {
            throw InterchangeError(
                "Plural-Forms: unexpected \"\(parser.tokens[parser.position])\" in \"\(expression)\"")
        }
        self.count = count
        self.root = root
    }

    /// The `msgstr` index the expression gives for `n`.
    /// - Throws: ``InterchangeError`` for a division by zero.
    public func index(for n: UInt64) throws(InterchangeError) -> UInt64 {
        try Self.evaluate(root, n)
    }

    private static func evaluate(_ node: Node, _ n: UInt64) throws(InterchangeError) -> UInt64 {
        switch node {
        case .number(let value): return value
        case .variable: return n
        case .unary(let op, let operand):
            let value = try evaluate(operand, n)
            return op == "!" ? (value == 0 ? 1 : 0) : 0 &- value
        case .conditional(let condition, let yes, let no):
            return try evaluate(condition, n) != 0 ? evaluate(yes, n) : evaluate(no, n)
        case .binary(let op, let left, let right):
            let lhs = try evaluate(left, n)
            // `&&` and `||` short-circuit, as in C: `n != 0 && 10 / n` is well defined.
            if op == "&&" { return lhs == 0 ? 0 : (try evaluate(right, n) != 0 ? 1 : 0) }
            if op == "||" { return lhs != 0 ? 1 : (try evaluate(right, n) != 0 ? 1 : 0) }
            let rhs = try evaluate(right, n)
            switch op {
            case "*": return lhs &* rhs
            case "/", "%":
                guard rhs != 0 else { throw InterchangeError("Plural-Forms: division by zero for n = \(n)") }
                return op == "/" ? lhs / rhs : lhs % rhs
            case "+": return lhs &+ rhs
            case "-": return lhs &- rhs
            case "<": return lhs < rhs ? 1 : 0
            case "<=": return lhs <= rhs ? 1 : 0
            case ">": return lhs > rhs ? 1 : 0
            case ">=": return lhs >= rhs ? 1 : 0
            case "==": return lhs == rhs ? 1 : 0
            default: return lhs != rhs ? 1 : 0
            }
        }
    }

    private static func tokens(_ text: String) throws(InterchangeError) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [String] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" {
                index += 1
            } else if ("0"..."9").contains(scalar) {
                var end = index
                while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
                tokens.append(String(String.UnicodeScalarView(scalars[index..<end])))
                index = end
            } else if index + 1 < scalars.count,
                ["<=", ">=", "==", "!=", "&&", "||"].contains(String(scalar) + String(scalars[index + 1]))
            {
                tokens.append(String(scalar) + String(scalars[index + 1]))
                index += 2
            } else if "n()!*/%+-<>?:".unicodeScalars.contains(scalar) {
                tokens.append(String(scalar))
                index += 1
            } else {
                throw InterchangeError("Plural-Forms: \"\(scalar)\" is not part of a plural expression in \"\(text)\"")
            }
        }
        return tokens
    }

    /// Recursive descent over C's precedence levels, each call one level deeper.
    private struct Parser {
        let tokens: [String]
        let text: String
        var position = 0

        private var next: String? { position < tokens.count ? tokens[position] : nil }

        private mutating func expect(_ token: String) throws(InterchangeError) {
            guard next == token else {
                throw InterchangeError("Plural-Forms: expected \"\(token)\" in \"\(text)\"")
            }
            position += 1
        }

        private func guarded(_ depth: Int) throws(InterchangeError) {
            guard depth <= GettextPluralExpression.maximumDepth else {
                throw InterchangeError(
                    "Plural-Forms: the expression nests deeper than \(GettextPluralExpression.maximumDepth) levels")
            }
        }

        mutating func conditional(depth: Int) throws(InterchangeError) -> Node {
            try guarded(depth)
            let condition = try binary(level: 0, depth: depth)
            guard next == "?" else { return condition }
            position += 1
            let yes = try conditional(depth: depth + 1)
            try expect(":")
            let no = try conditional(depth: depth + 1)
            return .conditional(condition, yes, no)
        }

        /// Binary operators by precedence, loosest first; each level is left-associative.
        private static let levels: [[String]] = [
            ["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"],
        ]

        /// A chain `a + b + c` nests to the left: each operator in it counts as a level, so
        /// the tree's height (and evaluation's recursion) stays within ``maximumDepth``.
        private mutating func binary(level: Int, depth: Int) throws(InterchangeError) -> Node {
            guard level < Self.levels.count else { return try unary(depth: depth) }
            var left = try binary(level: level + 1, depth: depth)
            var chain = depth
            while let op = next, Self.levels[level].contains(op) {
                position += 1
                chain += 1
                try guarded(chain)
                left = .binary(op, left, try binary(level: level + 1, depth: chain))
            }
            return left
        }

        private mutating func unary(depth: Int) throws(InterchangeError) -> Node {
            try guarded(depth)
            switch next {
            case "!", "-":
                let op = Character(tokens[position])
                position += 1
                return .unary(op, try unary(depth: depth + 1))
            case "(":
                position += 1
                let inner = try conditional(depth: depth + 1)
                try expect(")")
                return inner
            case "n":
                position += 1
                return .variable
            case let token? where token.first?.isNumber == true:
                position += 1
                guard let value = UInt64(token) else {
                    throw InterchangeError("Plural-Forms: \(token) is too large a number")
                }
                return .number(value)
            case let token?:
                throw InterchangeError("Plural-Forms: unexpected \"\(token)\" in \"\(text)\"")
            case nil:
                throw InterchangeError("Plural-Forms: \"\(text)\" ends too early")
            }
        }
    }
}
