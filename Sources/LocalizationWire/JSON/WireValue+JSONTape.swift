import LocalizationCore

extension WireValue {
    /// Nesting deeper than any request or reply needs; beyond it a value is refused (a JSON
    /// line, or a binary frame's value), so a line of ten thousand `[` costs nothing.
    static let maximumDepth = 64

    /// Reads one JSON text (surrounding whitespace allowed, nothing else) with the project's
    /// one JSON reader, ``JSONTape``, as the wire reads it: at most ``maximumDepth`` levels,
    /// no byte order mark, a key given twice keeps its last value, and every string UTF-8.
    ///
    /// - Throws: ``WireError`` with code ``WireError/Code/badRequest``:
    ///   `malformed JSON at byte N: …` naming the offset of the problem.
    init(json bytes: [UInt8]) throws(WireError) {
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes, rules: .wire)
        } catch {
            throw Self.malformed(at: error.offset, error.message)
        }
        self = try Self(tape, at: 0)
    }

    /// The value of the node at `index` and its members.
    private init(_ tape: JSONTape, at index: Int) throws(WireError) {
        let node = tape.nodes[index]
        switch node.kind {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .string: self = .string(try Self.string(tape, at: index))
        case .number: self = try Self.number(tape, node)
        case .array:
            var elements: [WireValue] = []
            elements.reserveCapacity(Int(node.count))
            var element = index + 1
            while element < Int(node.end) {
                elements.append(try WireValue(tape, at: element))
                element = tape.next(after: element)
            }
            self = .array(elements)
        case .object:
            var members: [String: WireValue] = [:]
            members.reserveCapacity(Int(node.count))
            var member = index + 1
            while member < Int(node.end) {
                // In document order, so a key given twice keeps its last value.
                members[try Self.string(tape, at: member)] = try WireValue(tape, at: member + 1)
                member = tape.next(after: member + 1)
            }
            self = .object(members)
        }
    }

    private static func string(_ tape: JSONTape, at index: Int) throws(WireError) -> String {
        guard let string = tape.validString(at: index) else {
            throw malformed(at: Int(tape.nodes[index].start), "string is not valid UTF-8")
        }
        return string
    }

    /// A number without fraction or exponent that fits in 64 bits is an integer; any other
    /// a finite double.
    private static func number(_ tape: JSONTape, _ node: JSONTape.Node) throws(WireError) -> WireValue {
        let text = tape.bytes.withUnsafeBufferPointer {
            String(decoding: $0[Int(node.start)..<Int(node.end)], as: UTF8.self)
        }
        let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            throw malformed(at: Int(node.start), "number out of range")
        }
        return .double(double)
    }

    private static func malformed(at offset: Int, _ reason: String) -> WireError {
        WireError(code: .badRequest, message: "malformed JSON at byte \(offset): \(reason)")
    }
}

extension JSONTape.Rules {
    /// The wire's: ``WireValue/maximumDepth`` levels, a repeated key left to
    /// ``WireValue/init(json:)`` (which keeps the last, as the protocol says), and no byte
    /// order mark (a line is no file, and a client that sends one sends a wrong request).
    static let wire = JSONTape.Rules(
        maximumDepth: WireValue.maximumDepth, refusesRepeatedKeys: false, allowsByteOrderMark: false)
}
