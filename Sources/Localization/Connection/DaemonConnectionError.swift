/// Why a request to `l10nd` failed, with a stable ``code`` for programs.
public struct DaemonConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// No daemon listens on the socket (or it cannot be reached).
        case unreachable
        /// The daemon did not answer within the time limit.
        case timeout
        /// The daemon closed the connection or sent something the protocol does not define.
        case protocolError = "protocol_error"
        /// The daemon answered with an error reply (``DaemonConnectionError/message`` has it).
        case daemon
    }

    /// What kind of failure.
    public var code: Code
    /// What happened, for people.
    public var message: String
    /// The daemon's own error code (`bad_request`, `forbidden`…) for ``Code/daemon``.
    public var daemonCode: String?
    /// Whether the socket refused this user permission (`EACCES`, `EPERM`): the socket is
    /// there, so the daemon is not to be started, and the message names the group to join.
    package var permissionRefused = false

    /// Creates an error.
    public init(code: Code, message: String, daemonCode: String? = nil) {
        self.code = code
        self.message = message
        self.daemonCode = daemonCode
    }

    /// The message.
    public var description: String { message }
}
