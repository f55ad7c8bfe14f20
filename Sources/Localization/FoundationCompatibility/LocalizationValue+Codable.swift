#if !canImport(Darwin)
    import Foundation
    import LocalizationCore

    extension String.LocalizationValue: Codable {
        private enum CodingKeys: String, CodingKey {
            case key, arguments
        }

        /// Decodes a value encoded by ``encode(to:)``.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            key = try container.decode(String.self, forKey: .key)
            let coded = try container.decodeIfPresent([CodedFormatArgument].self, forKey: .arguments) ?? []
            arguments = coded.map { .value($0.value) }
        }

        /// Encodes the key and the arguments: numbers and strings as they are, a value given
        /// with a `format:` style as its text in the POSIX locale (a style cannot be encoded).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            let posix = Locale(identifier: "en_US_POSIX")
            try container.encode(arguments.map { CodedFormatArgument($0.value(in: posix)) }, forKey: .arguments)
        }
    }

    /// A format argument as `String.LocalizationValue` encodes it: its kind and value.
    enum CodedFormatArgument: Codable {
        case integer(Int64)
        case unsigned(UInt64)
        case double(Double)
        case float(Float)
        case string(String)

        init(_ argument: any CVarArg) {
            switch argument {
            case let value as Float: self = .float(value)
            case let value as Double: self = .double(value)
            case let value as UInt: self = .unsigned(UInt64(value))
            case let value as UInt64: self = .unsigned(value)
            case let value as UInt32: self = .unsigned(UInt64(value))
            case let value as UInt16: self = .unsigned(UInt64(value))
            case let value as UInt8: self = .unsigned(UInt64(value))
            default:
                self = LocalizedFormatter.integerValue(argument).map(Self.integer) ?? .string("\(argument)")
            }
        }

        var value: any CVarArg & Sendable {
            switch self {
            case .integer(let value): value
            case .unsigned(let value): value
            case .double(let value): value
            case .float(let value): value
            case .string(let value): value
            }
        }
    }
#endif
