/// A JSON value: the free-form payload of `status`, `languages`, `missing` and `hello`
/// replies, and the parsed form of every JSON line before it becomes a request.
///
/// Integers and fractional numbers are kept apart so that generations, counts and ids
/// survive a round trip exactly; a number with a fraction or an exponent is a `double`.
///
/// ```swift
/// let status: WireValue = ["connections": 3, "languages": ["en", "ja"]]
/// ```
public enum WireValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// JSON `true` or `false`.
    case bool(Bool)
    /// A JSON number without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other JSON number; never infinite or NaN.
    case double(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([WireValue])
    /// A JSON object; keys are unique, the last duplicate wins when parsing.
    case object([String: WireValue])
}

extension WireValue {
    /// The string, if this value is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The integer, if this value is one.
    public var integerValue: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    /// The Boolean, if this value is one.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, if this value is an array.
    public var arrayValue: [WireValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The members, if this value is an object.
    public var objectValue: [String: WireValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The member named `key`, if this value is an object that has it.
    public subscript(key: String) -> WireValue? {
        objectValue?[key]
    }

    /// The value as compact JSON text, keys sorted so equal values print the same.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Parses one JSON value (surrounding whitespace allowed, nothing else).
    ///
    /// - Throws: ``WireError`` with code ``WireError/Code/badRequest`` naming the byte
    ///   offset of the first problem.
    public init(jsonText: String) throws(WireError) {
        try self.init(json: Array(jsonText.utf8))
    }
}

extension WireValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates a Boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an integer value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Creates a fractional number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an array value.
    public init(arrayLiteral elements: WireValue...) { self = .array(elements) }
    /// Creates an object value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, WireValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
