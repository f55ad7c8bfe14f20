/// A JSON document read in one pass into a flat list of nodes that point into its bytes:
/// no object per value, no `String` until one is asked for.
///
/// Foundation's `JSONSerialization` made a String Catalog cost some forty times its size
/// (a `NSString`, `NSNumber` or dictionary per value, then the reader's model on top); a
/// node here is 16 bytes, and a value's text stays in the document's bytes. The reader
/// checks what a strict reader (RFC 8259, as `jq`, Python's `json` and Xcode read String
/// Catalogs) checks, in the same pass: a trailing comma in an object or array and a key
/// given twice in one object are faults, at their place, after any syntax error (which
/// comes first whatever its place, as Foundation refused the whole file before).
///
/// Nodes are in document order; a container's node is followed by its members (an object's
/// as key, value, key, value …) and knows the index of the node after its last member, so a
/// member is skipped in one step.
///
/// It is the project's one JSON reader: String Catalogs are read with
/// ``Rules/stringCatalog``, the wire's JSON lines with the wire's own ``Rules`` (a shallower
/// nesting limit, a repeated key left to the reader, no byte order mark).
package struct JSONTape: Sendable {
    /// What a node is.
    package enum Kind: UInt8, Sendable {
        case object, array, string, number, `true`, `false`, null
    }

    /// One value: where its text is in the document, and for a container its extent.
    package struct Node: Sendable {
        package var kind: Kind
        /// A string with a backslash in it, which must be decoded to be read.
        package var isEscaped: Bool
        /// The offset of its first byte (a string's opening quote).
        package var start: UInt32
        /// The offset after its last byte for a string, number or literal; for a container,
        /// the index of the node after its last member.
        package var end: UInt32
        /// A container's members (an object's keys).
        package var count: UInt32
    }

    /// A fault, at the byte offset where it is.
    package struct Fault: Error, Sendable {
        package var offset: Int
        package var message: String
        /// For a key given twice, the offset of its first place.
        var earlier: Int?
    }

    /// What a format asks of its JSON beyond the syntax of RFC 8259, which every reader
    /// checks the same way.
    package struct Rules: Sendable {
        /// Nesting of arrays and objects deeper than this is refused rather than walked.
        package var maximumDepth: Int
        /// Whether a key given twice in one object is a fault; when it is not, the tape
        /// holds both members and its reader chooses (the wire keeps the last).
        package var refusesRepeatedKeys: Bool
        /// Whether a UTF-8 byte order mark may open the text (as it may a file's).
        package var allowsByteOrderMark: Bool

        package init(maximumDepth: Int, refusesRepeatedKeys: Bool, allowsByteOrderMark: Bool) {
            self.maximumDepth = maximumDepth
            self.refusesRepeatedKeys = refusesRepeatedKeys
            self.allowsByteOrderMark = allowsByteOrderMark
        }

        /// As a strict reader (`jq`, Python's `json`, Xcode) reads a String Catalog:
        /// Foundation's depth limit, each key once per object, a byte order mark allowed.
        package static let stringCatalog = Rules(
            maximumDepth: 512, refusesRepeatedKeys: true, allowsByteOrderMark: true)
    }

    /// The document (UTF-8).
    package let bytes: [UInt8]
    package let nodes: [Node]

    /// Reads `bytes`, a whole UTF-8 JSON document whose top level may be any value, as
    /// `rules` ask.
    ///
    /// - Throws: ``Fault`` at the first syntax error, else at the first strict fault.
    package init(_ bytes: [UInt8], rules: Rules = .stringCatalog) throws(Fault) {
        // A node's offsets are 32 bits; a text this long is no format's.
        guard bytes.count < UInt32.max else {
            throw Fault(offset: 0, message: "the text is longer than \(UInt32.max) bytes")
        }
        self.bytes = bytes
        let (result, nodes, strictFault) = bytes.withUnsafeBufferPointer { buffer in
            var reader = TapeReader(buffer, rules: rules)
            let result = Result { () throws(Fault) in try reader.read() }
            return (result, reader.nodes, reader.strictFault)
        }
        try result.get()
        if let strictFault {
            let location = strictFault.earlier.map { SourceLocation(byteOffset: $0, in: bytes, file: nil) }
            throw Fault(
                offset: strictFault.offset,
                message: strictFault.message
                    + (location.map { " (first at \($0.line):\($0.column)); a String Catalog names each key once" }
                        ?? ""))
        }
        self.nodes = nodes
    }

    /// The top-level value.
    var root: JSONTapeValue { JSONTapeValue(tape: self, index: 0) }

    /// The index of the node after `index` and its members.
    package func next(after index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .object || node.kind == .array ? Int(node.end) : index + 1
    }

    /// The text of the string node at `index`, decoded.
    package func string(at index: Int) -> String {
        bytes.withUnsafeBufferPointer { Self.text(of: nodes[index], in: $0) }
    }

    /// The text of the string node at `index`, decoded, or `nil` when its bytes are not
    /// UTF-8 (for a reader that did not check the whole document first, as the wire does
    /// not: only strings may hold bytes past ASCII).
    package func validString(at index: Int) -> String? {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { bytes in
            let content = Self.content(of: node, in: bytes)
            return node.isEscaped
                ? String(validating: Self.decodeEscaped(content), as: UTF8.self)
                : String(validating: content, as: UTF8.self)
        }
    }

    /// The text of the string `node` of `bytes`, decoded.
    static func text(of node: Node, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let content = content(of: node, in: bytes)
        return node.isEscaped
            ? String(decoding: decodeEscaped(content), as: UTF8.self) : String(decoding: content, as: UTF8.self)
    }

    /// The bytes between the quotes of the string `node` of `bytes`.
    private static func content(of node: Node, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[(Int(node.start) + 1)..<(Int(node.end) - 1)])
    }

    /// Whether the string node at `index` spells `ascii` (a field name of the format) as it
    /// is written, without decoding it.
    func string(at index: Int, isASCII ascii: StaticString) -> Bool {
        let node = nodes[index]
        guard !node.isEscaped else { return string(at: index) == ascii.description }
        let start = Int(node.start) + 1
        let length = Int(node.end) - 1 - start
        guard length == ascii.utf8CodeUnitCount else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            ascii.withUTF8Buffer { expected in
                (0..<length).allSatisfy { buffer[start + $0] == expected[$0] }
            }
        }
    }

    /// The UTF-8 of the content of a string literal (between the quotes) that holds escapes,
    /// already checked by the reader.
    private static func decodeEscaped(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var units: [UInt8] = []
        units.reserveCapacity(text.count)
        var index = 0
        func hex(at offset: Int) -> UInt32 {
            var value: UInt32 = 0
            for byte in text[offset..<(offset + 4)] { value = value << 4 | UInt32(hexDigit(byte)!) }
            return value
        }
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\") else {
                units.append(byte)
                index += 1
                continue
            }
            let escape = text[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): units.append(0x08)
            case UInt8(ascii: "f"): units.append(0x0C)
            case UInt8(ascii: "n"): units.append(0x0A)
            case UInt8(ascii: "r"): units.append(0x0D)
            case UInt8(ascii: "t"): units.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex(at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(at: index + 2) - 0xDC00)
                    index += 6
                }
                units += String(Character(Unicode.Scalar(scalar)!)).utf8
            default: units.append(escape)  // `"`, `\` and `/` stand for themselves
            }
        }
        return units
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// One value of a ``JSONTape``.
struct JSONTapeValue {
    let tape: JSONTape
    let index: Int

    var kind: JSONTape.Kind { tape.nodes[index].kind }

    /// The byte offset where the value is written.
    var offset: Int { Int(tape.nodes[index].start) }

    /// The text of a string; `nil` for any other value.
    var string: String? { kind == .string ? tape.string(at: index) : nil }

    /// An object's members in document order; `nil` for any other value.
    var members: [(key: String, value: JSONTapeValue)]? {
        guard kind == .object else { return nil }
        var members: [(key: String, value: JSONTapeValue)] = []
        members.reserveCapacity(Int(tape.nodes[index].count))
        forEachMember { key, value in members.append((tape.string(at: key), value)) }
        return members
    }

    /// Calls `body` with the key node's index and the value of each member of an object.
    private func forEachMember(_ body: (Int, JSONTapeValue) -> Void) {
        var member = index + 1
        let end = Int(tape.nodes[index].end)
        while member < end {
            body(member, JSONTapeValue(tape: tape, index: member + 1))
            member = tape.next(after: member + 1)
        }
    }

    /// An object's member named `name` (a field of the format, ASCII); `nil` when it has
    /// none or is not an object.
    subscript(name: StaticString) -> JSONTapeValue? {
        guard kind == .object else { return nil }
        var member = index + 1
        let end = Int(tape.nodes[index].end)
        while member < end {
            if tape.string(at: member, isASCII: name) { return JSONTapeValue(tape: tape, index: member + 1) }
            member = tape.next(after: member + 1)
        }
        return nil
    }

    /// A number as a whole `Int`, as Foundation's `NSNumber` converts to one: `2`, `2.0` and
    /// `2e0` are 2; `2.5` and a number past `Int`'s range are not whole numbers.
    var integer: Int? {
        guard kind == .number else { return nil }
        let node = tape.nodes[index]
        let text = tape.bytes.withUnsafeBufferPointer {
            String(decoding: $0[Int(node.start)..<Int(node.end)], as: UTF8.self)
        }
        if let whole = Int(text) { return whole }
        guard let double = Double(text), double.rounded() == double else { return nil }
        return Int(exactly: double)
    }
}

/// The state of one reading of a ``JSONTape``: an explicit stack, so no depth of nesting
/// costs the thread's stack.
private struct TapeReader {
    /// An open container.
    struct Frame {
        var node: Int
        var isObject: Bool
        /// The offset of a comma not yet followed by a member.
        var pendingComma: Int?
        /// An object's keys by their text, once it has too many to compare one by one.
        var keys: [String: Int]?
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let rules: JSONTape.Rules
    var nodes: [JSONTape.Node] = []
    var strictFault: JSONTape.Fault?
    private var stack: [Frame] = []
    /// Keys an object compares one by one before it hashes them.
    private static let linearKeys = 16

    init(_ bytes: UnsafeBufferPointer<UInt8>, rules: JSONTape.Rules) {
        self.bytes = bytes
        self.rules = rules
        // Xcode writes a value every 15–25 bytes; reserving a little over that saves most
        // regrowth without holding much more than the nodes need.
        nodes.reserveCapacity(bytes.count / 12 + 16)
    }

    mutating func read() throws(JSONTape.Fault) {
        // A UTF-8 byte order mark is no part of the text.
        let bom =
            rules.allowsByteOrderMark && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        var position = skipSpace(bom ? 3 : 0)
        // One value, then members until the stack is empty.
        try value(&position)
        // The frame's fields, not the frame: a copy of it would share its key dictionary,
        // which ``checkKey(_:)`` then copied whole at every key it added.
        while let (node, isObject, pendingComma) = stack.last.map({ ($0.node, $0.isObject, $0.pendingComma) }) {
            position = skipSpace(position)
            guard position < bytes.count else { throw fault(bytes.count, "unexpected end of input") }
            let byte = bytes[position]
            if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                close(position, comma: pendingComma, byte: byte)
                position += 1
                continue
            }
            let hasMembers = nodes.count > node + 1
            if hasMembers && pendingComma == nil {
                guard byte == UInt8(ascii: ",") else {
                    throw fault(position, "expected ',' or '\(isObject ? "}" : "]")' after a member")
                }
                stack[stack.count - 1].pendingComma = position
                position = skipSpace(position + 1)
                guard position < bytes.count else { throw fault(bytes.count, "unexpected end of input") }
                continue
            }
            stack[stack.count - 1].pendingComma = nil
            if isObject {
                guard bytes[position] == UInt8(ascii: "\"") else {
                    throw fault(position, "expected a key (a string in double quotes)")
                }
                try string(&position)
                if rules.refusesRepeatedKeys { checkKey(nodes.count - 1) }
                position = skipSpace(position)
                guard position < bytes.count else { throw fault(bytes.count, "unexpected end of input") }
                guard bytes[position] == UInt8(ascii: ":") else { throw fault(position, "expected ':' after a key") }
                position = skipSpace(position + 1)
            }
            nodes[node].count += 1
            try value(&position)
        }
        position = skipSpace(position)
        guard position == bytes.count else { throw fault(position, "garbage after the top-level value") }
    }

    /// Reads the value at `position` (after any space): a scalar whole, a container opened.
    private mutating func value(_ position: inout Int) throws(JSONTape.Fault) {
        guard position < bytes.count else { throw fault(bytes.count, "unexpected end of input") }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "\""):
            try string(&position)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < rules.maximumDepth else {
                throw fault(position, "arrays and objects nested deeper than \(rules.maximumDepth) levels")
            }
            let isObject = bytes[position] == UInt8(ascii: "{")
            stack.append(Frame(node: nodes.count, isObject: isObject))
            nodes.append(node(isObject ? .object : .array, start, 0))
            position += 1
        case UInt8(ascii: "t"): try literal("true", .true, &position)
        case UInt8(ascii: "f"): try literal("false", .false, &position)
        case UInt8(ascii: "n"): try literal("null", .null, &position)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number(&position)
            nodes.append(node(.number, start, position))
        default:
            throw fault(position, "unexpected character")
        }
    }

    private func node(_ kind: JSONTape.Kind, _ start: Int, _ end: Int) -> JSONTape.Node {
        JSONTape.Node(kind: kind, isEscaped: false, start: UInt32(start), end: UInt32(end), count: 0)
    }

    /// Ends the container on top of the stack at `position`.
    private mutating func close(_ position: Int, comma: Int?, byte: UInt8) {
        let frame = stack.removeLast()
        nodes[frame.node].end = UInt32(nodes.count)
        if let comma, strictFault == nil {
            strictFault = fault(comma, "trailing comma before '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    /// Notes a key given twice in the object on top of the stack (the first such fault).
    private mutating func checkKey(_ key: Int) {
        guard strictFault == nil else { return }
        let top = stack.count - 1
        let object = stack[top].node
        let count = Int(nodes[object].count)
        if stack[top].keys == nil && count < Self.linearKeys {
            var member = object + 1
            while member < key {
                if sameKey(member, key) { return duplicate(key, first: Int(nodes[member].start)) }
                member = nextNode(after: member + 1)
            }
            return
        }
        // Taken out of the frame while it grows, so that it is changed in place.
        var keys = stack[top].keys ?? [:]
        stack[top].keys = nil
        defer { stack[top].keys = keys }
        if keys.isEmpty {
            var member = object + 1
            while member < key {
                keys[text(member)] = Int(nodes[member].start)
                member = nextNode(after: member + 1)
            }
        }
        let name = text(key)
        if let first = keys[name] { return duplicate(key, first: first) }
        keys[name] = Int(nodes[key].start)
    }

    private mutating func duplicate(_ key: Int, first: Int) {
        strictFault = JSONTape.Fault(
            offset: Int(nodes[key].start), message: "duplicate key \(JSONText.literal(text(key)))", earlier: first)
    }

    /// Whether two key nodes name the same key, compared as Swift compares strings (by
    /// canonical equivalence), as a dictionary of keys would.
    private func sameKey(_ one: Int, _ other: Int) -> Bool {
        let left = nodes[one]
        let right = nodes[other]
        if !left.isEscaped && !right.isEscaped {
            let leftText = UnsafeBufferPointer(rebasing: bytes[Int(left.start)..<Int(left.end)])
            let rightText = UnsafeBufferPointer(rebasing: bytes[Int(right.start)..<Int(right.end)])
            if leftText.elementsEqual(rightText) { return true }
            // ASCII keys that differ are different keys; others may be equivalent.
            if leftText.allSatisfy({ $0 < 0x80 }) && rightText.allSatisfy({ $0 < 0x80 }) { return false }
        }
        return text(one) == text(other)
    }

    private func nextNode(after index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .object || node.kind == .array ? Int(node.end) : index + 1
    }

    private func text(_ key: Int) -> String {
        JSONTape.text(of: nodes[key], in: bytes)
    }

    private func fault(_ offset: Int, _ message: String) -> JSONTape.Fault {
        JSONTape.Fault(offset: offset, message: message)
    }

    private func skipSpace(_ start: Int) -> Int {
        var position = start
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return position
            }
        }
        return position
    }

    private mutating func literal(
        _ word: StaticString, _ kind: JSONTape.Kind, _ position: inout Int
    ) throws(JSONTape.Fault) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            position + length <= bytes.count && (0..<length).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw fault(position, "invalid literal") }
        nodes.append(node(kind, position, position + length))
        position += length
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private func number(_ position: inout Int) throws(JSONTape.Fault) {
        func digits() -> Int {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - start
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let leading = position
        guard digits() > 0 else { throw fault(position, "a number needs digits") }
        if bytes[leading] == UInt8(ascii: "0") && position - leading > 1 {
            throw fault(leading, "a number cannot start with 0")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw fault(position, "a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw fault(position, "a number needs digits in its exponent") }
        }
    }

    /// Reads the string literal at `position` into a node: no control character unescaped,
    /// every escape one JSON has, `\u` surrogates in pairs.
    private mutating func string(_ position: inout Int) throws(JSONTape.Fault) {
        let start = position
        var isEscaped = false
        position += 1
        while true {
            // The common run: neither a quote, a backslash nor a control character.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            guard position < bytes.count else { throw fault(bytes.count, "unexpected end of input in a string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            guard byte == UInt8(ascii: "\\") else {
                throw fault(position, "a control character in a string must be escaped")
            }
            isEscaped = true
            guard position + 1 < bytes.count else { throw fault(bytes.count, "unexpected end of input in a string") }
            switch bytes[position + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                position += 2
            case UInt8(ascii: "u"):
                let unit = try hex(position + 2)
                if (0xDC00..<0xE000).contains(unit) {
                    throw fault(position, "a \\u escape of a low surrogate with no high one before it")
                }
                if (0xD800..<0xDC00).contains(unit) {
                    let low =
                        position + 7 < bytes.count && bytes[position + 6] == UInt8(ascii: "\\")
                            && bytes[position + 7] == UInt8(ascii: "u")
                        ? try hex(position + 8) : nil
                    guard let low, (0xDC00..<0xE000).contains(low) else {
                        throw fault(position, "a \\u escape of a high surrogate with no low one after it")
                    }
                    position += 6
                }
                position += 6
            default:
                throw fault(position, "an invalid escape in a string")
            }
        }
        position += 1
        nodes.append(
            JSONTape.Node(
                kind: .string, isEscaped: isEscaped, start: UInt32(start), end: UInt32(position), count: 0))
    }

    private func hex(_ start: Int) throws(JSONTape.Fault) -> UInt32 {
        guard start + 4 <= bytes.count else { throw fault(bytes.count, "unexpected end of input in a string") }
        var value: UInt32 = 0
        for offset in start..<(start + 4) {
            guard let digit = JSONTape.hexDigit(bytes[offset]) else {
                throw fault(offset, "a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
