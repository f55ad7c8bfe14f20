import Foundation
import LocalizationCore

/// One setting of `l10nd.conf`, with how its value is checked and stored.
///
/// The file and the command line share these, so a value means the same and fails with the
/// same words in both places.
enum ConfigurationKey: String, CaseIterable, Sendable {
    case resources
    case socket
    case developmentLanguage = "development_language"
    case logLevel = "log_level"
    case settleMilliseconds = "settle_ms"
    case maxMessageBytes = "max_message_bytes"
    case maxConnections = "max_connections"
    case idleTimeoutSeconds = "idle_timeout_seconds"
    case maxOutputBufferBytes = "max_output_buffer_bytes"
    case requestTimeoutSeconds = "request_timeout_seconds"
    case maxFileBytes = "max_file_bytes"
    case socketGroup = "socket_group"
    case allowSymlinksOutsideRoots = "allow_symlinks_outside_roots"
    case metricsListen = "metrics_listen"

    /// Whether the key may appear more than once (each adds a value).
    var isRepeatable: Bool { self == .resources }

    /// Checks `value` and stores it in `configuration`; relative paths are taken from `base`.
    ///
    /// Throws the reason as `expected …, got '…'` for the caller to place.
    func apply(_ value: String, to configuration: inout DaemonConfiguration, base: String) throws(ValueError) {
        switch self {
        case .resources:
            configuration.resources.append(try Self.path(value, base: base, expected: "a directory path"))
            configuration.resourceSpellings.append(value)
        case .socket:
            let path = try Self.path(value, base: base, expected: "a socket path")
            guard path.utf8.count <= 107 else {
                throw ValueError("expected a socket path of at most 107 bytes, got one of \(path.utf8.count)")
            }
            configuration.socketPath = path
        case .developmentLanguage:
            let allowed = value.utf8.allSatisfy {
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                    || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            }
            guard allowed, (2...35).contains(value.utf8.count), value.first?.isLetter == true else {
                throw ValueError(expected: "a language tag such as en or pt-BR", got: value)
            }
            // Only BCP 47 as written: `english` or `ja_JP` would otherwise be read as `en` or
            // `ja-JP` without a word, a guess the operator never sees.
            do { _ = try LanguageTag.written(value) } catch {
                throw ValueError("'\(value)' is not a BCP 47 language tag such as en or pt-BR: \(error.reason)")
            }
            configuration.developmentLanguage = value
        case .logLevel:
            guard let level = LogLevel(name: value) else {
                let names = LogLevel.allCases.reversed().map(\.name).joined(separator: ", ")
                throw ValueError(expected: "one of \(names)", got: value)
            }
            configuration.logLevel = level
        case .settleMilliseconds:
            configuration.settleMilliseconds = try Self.number(value, in: 0...10_000)
        case .maxMessageBytes:
            configuration.maxMessageBytes = try Self.number(value, in: 1_024...67_108_864)
        case .maxConnections:
            configuration.maxConnections = try Self.number(value, in: 1...65_536)
        case .idleTimeoutSeconds:
            configuration.idleTimeoutSeconds = try Self.number(value, in: 0...86_400)
        case .maxOutputBufferBytes:
            configuration.maxOutputBufferBytes = try Self.number(value, in: 4_096...1_073_741_824)
        case .requestTimeoutSeconds:
            configuration.requestTimeoutSeconds = try Self.number(value, in: 1...3_600)
        case .maxFileBytes:
            configuration.maxFileBytes = try Self.number(value, in: 4_096...4_294_967_296)
        case .socketGroup:
            let valid =
                !value.isEmpty && value.utf8.count <= 32 && value.first != "-"
                && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
            guard valid else { throw ValueError(expected: "a group name or number", got: value) }
            configuration.socketGroup = value
        case .allowSymlinksOutsideRoots:
            switch value.lowercased() {
            case "true", "yes", "on", "1": configuration.allowSymlinksOutsideRoots = true
            case "false", "no", "off", "0": configuration.allowSymlinksOutsideRoots = false
            default: throw ValueError(expected: "true or false", got: value)
            }
        case .metricsListen:
            guard let address = MetricsAddress(value) else {
                throw ValueError(
                    expected: "an IP address and port such as 127.0.0.1:9464 or [::1]:9464, or an absolute socket path",
                    got: value)
            }
            configuration.metricsListen = address
        }
    }

    /// Why a value was refused, without the key or the place (the caller adds those).
    struct ValueError: Error {
        var message: String
        init(_ message: String) { self.message = message }
        init(expected: String, got value: String) {
            message = "expected \(expected), got " + (value.isEmpty ? "nothing" : "'\(value)'")
        }
    }

    private static func number(_ value: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw ValueError(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)", got: value)
        }
        return number
    }

    private static func path(_ value: String, base: String, expected: String) throws(ValueError) -> String {
        guard !value.isEmpty, !value.utf8.contains(0) else { throw ValueError(expected: expected, got: value) }
        let url =
            value.hasPrefix("/")
            ? URL(fileURLWithPath: value)
            : URL(fileURLWithPath: value, relativeTo: URL(fileURLWithPath: base, isDirectory: true))
        return url.standardizedFileURL.path
    }
}
