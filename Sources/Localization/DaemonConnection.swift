import Foundation
import Glibc
import LocalizationSockets
public import LocalizationWire
import Synchronization

/// One connection to `l10nd`, speaking binary frames; requests are answered in order.
///
/// Thread-safe: concurrent callers take turns. The socket is found from an explicit path,
/// else `L10N_SOCKET`, else the daemon's default (`$XDG_RUNTIME_DIR/l10nd/l10nd.sock` or
/// `/tmp/l10nd-$UID/l10nd.sock`).
///
/// ```swift
/// let connection = try DaemonConnection()
/// if case .lookup(let result) = try connection.send(.lookup(key: "多言語化", languages: ["ja"], table: nil, count: nil)) {
///     print(result.value)
/// }
/// ```
public final class DaemonConnection: Sendable {
    private struct Channel: ~Copyable {
        let socket: UnixStreamSocket
        var framer: MessageFramer
        var nextID: UInt32 = 1
    }

    /// The socket path this connection uses.
    public let socketPath: String
    private let channel: Mutex<Channel>

    /// The socket path from `environment`: `L10N_SOCKET`, else the daemon's default.
    public static func socketPath(environment: [String: String]) -> String {
        if let path = environment["L10N_SOCKET"], !path.isEmpty { return path }
        return DefaultSocketPath.path(environment: environment, userID: getuid())
    }

    /// Connects to `socketPath` (or the environment's), waiting at most `timeout` seconds
    /// for each reply.
    public init(socketPath: String? = nil, timeout: Double = 5) throws(DaemonConnectionError) {
        let path = socketPath ?? Self.socketPath(environment: ProcessInfo.processInfo.environment)
        self.socketPath = path
        do {
            let socket = try UnixStreamSocket(path: path, timeout: timeout)
            channel = Mutex(Channel(socket: socket, framer: MessageFramer(maxMessageBytes: 256 << 20)))
        } catch {
            throw DaemonConnectionError(code: .unreachable, message: error.message)
        }
    }

    /// Sends `operation` and returns the daemon's reply; an error reply comes back as
    /// `.error`, not thrown.
    public func send(_ operation: WireOperation) throws(DaemonConnectionError) -> WireReply {
        try channel.withLock { (channel: inout Channel) throws(DaemonConnectionError) -> WireReply in
            let id = channel.nextID
            channel.nextID &+= 1
            try Self.write(WireRequest(id: .number(Int64(id)), operation: operation), on: channel.socket)
            while true {
                switch try Self.readMessage(from: &channel) {
                case .reply(_, let reply): return reply
                case .event: continue  // a subscriber's event arriving before this reply
                }
            }
        }
    }

    /// Waits for the next pushed event (after a `.subscribe`), at most the time limit.
    public func nextEvent() throws(DaemonConnectionError) -> WireEvent {
        try channel.withLock { (channel: inout Channel) throws(DaemonConnectionError) -> WireEvent in
            while true {
                if case .event(let event) = try Self.readMessage(from: &channel) { return event }
            }
        }
    }

    private static func write(_ request: WireRequest, on socket: UnixStreamSocket) throws(DaemonConnectionError) {
        do { try socket.send(BinaryFrameCodec.encode(request)) } catch { throw failure(error) }
    }

    private static func readMessage(from channel: inout Channel) throws(DaemonConnectionError) -> WireServerMessage {
        while true {
            if let message = channel.framer.nextMessage() {
                do { return try WireCodec.decodeServerMessage(message) } catch {
                    throw DaemonConnectionError(code: .protocolError, message: "the daemon sent a message this client cannot read: \(error.message)")
                }
            }
            let bytes: [UInt8]
            do { bytes = try channel.socket.receive() } catch { throw failure(error) }
            guard !bytes.isEmpty else {
                throw DaemonConnectionError(code: .protocolError, message: "the daemon closed the connection")
            }
            channel.framer.append(contentsOf: bytes)
        }
    }

    private static func failure(_ error: SocketError) -> DaemonConnectionError {
        if error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return DaemonConnectionError(code: .timeout, message: "the daemon did not answer in time")
        }
        return DaemonConnectionError(code: .unreachable, message: error.message)
    }
}
