import Foundation

/// A property list as far as localization files need it: strings, dictionaries and
/// arrays, with every other kind kept only by name for error messages.
///
/// Readers work on this instead of Foundation's `Any` so a wrong type is a `switch` case,
/// not a failed cast, and so binary property lists can come from our own reader.
indirect enum PropertyListValue: Hashable {
    case string(String)
    case dictionary([String: PropertyListValue])
    case array([PropertyListValue])
    /// A number, boolean, date, data, UID or set: named, e.g. `a number`.
    case other(kind: String)

    /// What this is, for a message: `a string`, `a dictionary`, `a number`…
    var kindDescription: String {
        switch self {
        case .string: "a string"
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .other(let kind): kind
        }
    }

    /// Reads an XML, old-style (OpenStep) or binary property list.
    ///
    /// Binary property lists go to ``BinaryPropertyListReader``: on Linux, Foundation's
    /// `PropertyListSerialization` crashed on damaged binary input (a broken set bridged to
    /// Swift) and `PropertyListDecoder` spun for minutes on some. Its XML and old-style
    /// readers survived the same fuzzing, so they are used for text.
    static func parse(_ bytes: [UInt8], file: String?) throws(ResourceParseError) -> PropertyListValue {
        if bytes.starts(with: BinaryPropertyListReader.magic) {
            return try BinaryPropertyListReader.read(bytes, file: file)
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        } catch {
            throw foundationError(error, file: file)
        }
        return PropertyListValue(foundationObject: object)
    }

    /// Converts what `PropertyListSerialization` returns.
    init(foundationObject object: Any) {
        switch object {
        case let string as String:
            self = .string(string)
        case let dictionary as [String: Any]:
            self = .dictionary(dictionary.mapValues(PropertyListValue.init(foundationObject:)))
        case let array as [Any]:
            self = .array(array.map(PropertyListValue.init(foundationObject:)))
        case is Data:
            self = .other(kind: "data")
        case is Date:
            self = .other(kind: "a date")
        case is Bool:
            self = .other(kind: "a boolean")
        default:
            self = .other(kind: "a number")
        }
    }

    /// Foundation's parse error as ours, with the line its description names, if any.
    private static func foundationError(_ error: any Error, file: String?) -> ResourceParseError {
        let description =
            (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            ?? "\(error)"
        var line = 1
        if let range = description.range(of: "line ", options: .backwards) {
            let digits = description[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            line = Int(digits) ?? 1
        }
        return ResourceParseError(
            location: SourceLocation(file: file, line: max(line, 1), column: 1),
            message: "not a valid property list: \(description)")
    }
}
