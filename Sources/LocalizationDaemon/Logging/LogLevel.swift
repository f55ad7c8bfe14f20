/// How much the daemon says, in syslog's order (journald's priorities).
package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Something is broken and needs a person.
    case error = 3
    /// Something went wrong and was survived (a file failed to parse, a client was cut off).
    case warning = 4
    /// Normal but worth knowing (started, reloaded).
    case notice = 5
    /// Routine (each change applied).
    case info = 6
    /// Everything, for finding bugs.
    case debug = 7

    /// Parses `debug`, `info`, `notice`, `warning` (or `warn`), `error`.
    package init?(name: String) {
        let name = ["warn": "warning", "err": "error"][name.lowercased()] ?? name.lowercased()
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    /// The level's name as configured.
    package var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }

    /// Higher priority (more severe) sorts first.
    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
