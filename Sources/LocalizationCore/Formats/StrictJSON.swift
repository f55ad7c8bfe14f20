/// What a strict JSON reader (RFC 8259, as `jq`, Python's `json` and Xcode read String
/// Catalogs) refuses but Foundation's `JSONSerialization` on Linux lets through: a trailing
/// comma in an object or array, and a key given twice in one object (Foundation keeps the
/// last silently, so one of two translations would vanish).
///
/// Run on bytes `JSONSerialization` has already accepted: it tokenises only strings,
/// brackets and commas, in one pass with an explicit stack (no recursion, however deep).
enum StrictJSON {
    /// The first fault's byte offset and what it is, or `nil` when there is none.
    static func firstFault(in bytes: [UInt8]) -> (offset: Int, message: String)? {
        struct Container {
            var isObject: Bool
            /// Each key of an object, with the offset it was first written at.
            var keys: [String: Int] = [:]
            /// The offset of a comma not yet followed by a value.
            var pendingComma: Int?
            /// Whether the next string is a key (just after `{` or a comma in an object).
            var expectsKey: Bool
        }
        var stack: [Container] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if !stack.isEmpty { stack[stack.count - 1].pendingComma = nil }
                let isObject = byte == UInt8(ascii: "{")
                stack.append(Container(isObject: isObject, expectsKey: isObject))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let top = stack.popLast() else { return nil }
                if let comma = top.pendingComma {
                    return (comma, "trailing comma before '\(Character(Unicode.Scalar(byte)))'")
                }
            case UInt8(ascii: ","):
                if !stack.isEmpty {
                    stack[stack.count - 1].pendingComma = index
                    stack[stack.count - 1].expectsKey = stack[stack.count - 1].isObject
                }
            case UInt8(ascii: "\""):
                let start = index
                var hasEscape = false
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        hasEscape = true
                        index += 1
                    }
                    index += 1
                }
                guard !stack.isEmpty else { break }
                stack[stack.count - 1].pendingComma = nil
                guard stack[stack.count - 1].expectsKey else { break }
                stack[stack.count - 1].expectsKey = false
                let literal = bytes[start...min(index, bytes.count - 1)]
                let key =
                    hasEscape
                    ? JSONText.decode(Array(literal)) ?? String(decoding: literal, as: UTF8.self)
                    : String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
                if let first = stack[stack.count - 1].keys[key] {
                    let earlier = SourceLocation(byteOffset: first, in: bytes, file: nil)
                    return (
                        start,
                        "duplicate key \(JSONText.literal(key)) (first at \(earlier.line):\(earlier.column)); "
                            + "a String Catalog names each key once"
                    )
                }
                stack[stack.count - 1].keys[key] = start
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"):
                break
            default:
                if !stack.isEmpty { stack[stack.count - 1].pendingComma = nil }
            }
            index += 1
        }
        return nil
    }
}
