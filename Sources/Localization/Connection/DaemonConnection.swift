import Foundation
import Glibc
import LocalizationSockets
package import LocalizationWire
import Synchronization

/// One plain connection to `l10nd`, speaking binary frames, one request at a time.
///
/// Thread-safe: concurrent callers take turns. It neither reconnects nor falls back: it is
/// what `l10nctl` uses for `status`, `reload` and `watch`. Programs want
/// ``LocalizationClient`` (pipelined, reconnecting) or simply ``Localizer``.
///
/// The socket is found from an explicit path, else by the clients' rule (``socketPath(environment:)``).
///
/// ```swift
/// let connection = try DaemonConnection()
/// if case .lookup(let result) = try connection.send(.lookup(key: "多言語化", languages: ["ja"], table: nil)) {
///     print(result.value)
/// }
/// ```
package final class DaemonConnection: Sendable {
    /// The socket path this connection uses.
    package let socketPath: String
    /// The time limit of each send and each wait for a reply, in seconds.
    package let timeout: Double
    private let socket: FrameSocket
    /// The next request id; the lock is also what makes callers take turns.
    private let nextID = ForkSafeMutex<UInt32>(1)

    /// The socket path from `environment` by the clients' rule (``ClientSocketPath``):
    /// `L10N_SOCKET`, else the per-user socket if it exists, else `/run/l10nd/l10nd.sock`.
    package static func socketPath(environment: [String: String]) -> String {
        ClientSocketPath.path(environment: environment, userID: getuid())
    }

    /// Whether a socket is where the clients' rule looks (``socketPath(environment:)``): a
    /// daemon of this user's or the host's is there to be asked, with nothing configured.
    package static func socketIsFound(environment: [String: String]) -> Bool {
        ClientSocketPath.fileExists(socketPath(environment: environment))
    }

    /// Connects to `socketPath` (or the environment's), waiting at most `timeout` seconds
    /// for each reply.
    package init(socketPath: String? = nil, timeout: Double = 5) throws(DaemonConnectionError) {
        let path = socketPath ?? Self.socketPath(environment: ProcessInfo.processInfo.environment)
        self.socketPath = path
        self.timeout = timeout
        socket = try FrameSocket(path: path, timeout: timeout)
    }

    /// Sends `operation` and returns the daemon's reply; an error reply comes back as
    /// `.error`, not thrown.
    package func send(_ operation: WireOperation) throws(DaemonConnectionError) -> WireReply {
        try nextID.withLock { (id: inout UInt32) throws(DaemonConnectionError) -> WireReply in
            defer { id = id == .max ? 1 : id + 1 }
            return try socket.roundTrip(operation, id: id)
        }
    }

    /// Waits for the next pushed event (after a `.subscribe`), at most the time limit.
    package func nextEvent() throws(DaemonConnectionError) -> WireEvent {
        try nextID.withLock { (_: inout UInt32) throws(DaemonConnectionError) -> WireEvent in
            while true {
                if case .event(let event) = try socket.reader.receive() { return event }
            }
        }
    }
}
