/// An error reply: a stable machine-readable ``code`` and a message for people.
///
/// Every malformed request, in either encoding, becomes one of these instead of a hang,
/// a crash or a silently dropped connection.
///
/// ```swift
/// let error = WireError(code: .unknownOp, message: "unknown op \"frobnicate\"")
/// ```
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code, spelled on the wire in `snake_case`.
    ///
    /// A struct rather than an enum so that a client can carry a code that a newer daemon
    /// introduced without failing to decode it.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as it appears on the wire, e.g. `bad_request`.
        public var rawValue: String

        /// Wraps a wire spelling.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request could not be read: malformed JSON or frame, missing or mistyped field.
        public static let badRequest = Code(rawValue: "bad_request")
        /// The request's `op` names no operation this daemon knows.
        public static let unknownOp = Code(rawValue: "unknown_op")
        /// The message is over the size limit; the connection is closed after this error.
        public static let tooLarge = Code(rawValue: "too_large")
        /// The peer may not perform this operation.
        public static let forbidden = Code(rawValue: "forbidden")
        /// The daemon failed while answering; the request itself may be fine.
        public static let `internal` = Code(rawValue: "internal")
        /// The daemon cannot take the request now (too many connections, shutting down).
        public static let unavailable = Code(rawValue: "unavailable")
        /// `map`: the generation served is still being compiled (protocol 1.5): a later `map`
        /// gets it (milliseconds for thousands of strings, seconds for millions).
        public static let compiling = Code(rawValue: "compiling")

        /// The wire spelling.
        public var description: String { rawValue }
    }

    /// What went wrong, for programs.
    public var code: Code
    /// What went wrong, for people.
    public var message: String

    /// Creates an error reply.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
