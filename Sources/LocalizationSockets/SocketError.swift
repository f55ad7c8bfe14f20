/// A failure of the daemon's socket layer, with a stable ``code`` and a message a person
/// can act on (it names the path or the system call and the C error).
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code.
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's spelling, e.g. `address_in_use`.
        public var rawValue: String
        /// Wraps a spelling.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Another process listens on the socket path.
        public static let addressInUse = Code(rawValue: "address_in_use")
        /// The socket path exists and is not a socket; it is never removed.
        public static let notASocket = Code(rawValue: "not_a_socket")
        /// The path does not fit in `sockaddr_un.sun_path` (107 bytes).
        public static let pathTooLong = Code(rawValue: "path_too_long")
        /// A socket-activation descriptor is unusable (not a listening stream socket).
        public static let badActivation = Code(rawValue: "bad_activation")
        /// The process may open fewer descriptors (`RLIMIT_NOFILE`) than it needs to run.
        package static let tooFewDescriptors = Code(rawValue: "too_few_descriptors")
        /// A system call failed; ``SocketError/errno`` says why.
        public static let systemCall = Code(rawValue: "system_call")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The C `errno`, when a system call failed.
    public var errno: Int32?
    /// What happened, for people.
    public var message: String

    /// Creates an error.
    public init(code: Code, errno: Int32? = nil, message: String) {
        self.code = code
        self.errno = errno
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
