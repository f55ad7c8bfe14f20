import LocalizationCore

/// Reads protocol 1.4's format arguments and finished strings out of a ``WireValue``, the
/// same for JSON lines and binary frames (which carry them as a trailing value).
enum WireArguments {
    /// A lookup's `args`: a list of strings and finite numbers, at most
    /// ``WireOperation/maximumArguments``; `nil` for null.
    static func lookup(_ value: WireValue, name: String = "\"args\"") throws(WireError) -> [FormatValue]? {
        if value == .null { return nil }
        guard case .array(let elements) = value else {
            throw badRequest("\(name) must be a list of strings and numbers")
        }
        guard elements.count <= WireOperation.maximumArguments else {
            throw badRequest("\(name) lists \(elements.count) arguments; at most \(WireOperation.maximumArguments)")
        }
        var values: [FormatValue] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            switch element {
            case .string(let text): values.append(.string(text))
            case .integer(let integer): values.append(.integer(integer))
            case .double(let double) where double.isFinite: values.append(.double(double))
            default: throw badRequest("\(name)[\(index)] must be a string or a finite number, not \(element.jsonText)")
            }
        }
        return values
    }

    /// A batch's `args`: one argument list, or null, per key; `nil` for null.
    static func batch(_ value: WireValue, keys: Int) throws(WireError) -> [[FormatValue]?]? {
        if value == .null { return nil }
        guard case .array(let perKey) = value, perKey.count == keys else {
            throw badRequest("\"args\" must list one argument list (or null) per key")
        }
        var arguments: [[FormatValue]?] = []
        arguments.reserveCapacity(keys)
        for (index, element) in perKey.enumerated() {
            arguments.append(try lookup(element, name: "\"args\"[\(index)]"))
        }
        return arguments
    }

    /// A batch reply's `formatted`: one string, or null, per value.
    static func formatted(_ value: WireValue, count: Int) throws(WireError) -> [String?]? {
        if value == .null { return nil }
        guard case .array(let elements) = value, elements.count == count,
            elements.allSatisfy({ $0 == .null || $0.stringValue != nil })
        else { throw badRequest("\"formatted\" must list one string or null per value") }
        return elements.map(\.stringValue)
    }

    private static func badRequest(_ message: String) -> WireError {
        WireError(code: .badRequest, message: message)
    }
}
