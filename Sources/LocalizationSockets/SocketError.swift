/// A failure of the daemon's socket layer, with a stable ``code`` and a message a person
/// can act on (it names the path or the system call and the C error).
package struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code.
    package struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's spelling, e.g. `address_in_use`.
        package var rawValue: String
        /// Wraps a spelling.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// Another process listens on the socket path.
        package static let addressInUse = Code(rawValue: "address_in_use")
        /// The socket path exists and is not a socket; it is never removed.
        package static let notASocket = Code(rawValue: "not_a_socket")
        /// The path does not fit in `sockaddr_un.sun_path` (107 bytes).
        package static let pathTooLong = Code(rawValue: "path_too_long")
        /// A socket-activation descriptor is unusable (not a listening stream socket).
        package static let badActivation = Code(rawValue: "bad_activation")
        /// The process may open fewer descriptors (`RLIMIT_NOFILE`) than it needs to run.
        package static let tooFewDescriptors = Code(rawValue: "too_few_descriptors")
        /// A system call failed; ``SocketError/errno`` says why.
        package static let systemCall = Code(rawValue: "system_call")
    }

    /// What kind of failure this is.
    package var code: Code
    /// The C `errno`, when a system call failed.
    package var errno: Int32?
    /// What happened, for people.
    package var message: String

    /// Creates an error.
    package init(code: Code, errno: Int32? = nil, message: String) {
        self.code = code
        self.errno = errno
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
