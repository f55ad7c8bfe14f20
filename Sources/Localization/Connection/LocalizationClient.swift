import Foundation
public import LocalizationWire
import Synchronization

/// A pipelined, self-healing connection to `l10nd`: what ``Localizer`` uses in its daemon
/// modes, and what a program uses for operations of its own.
///
/// - Connects to an explicit path, else `L10N_SOCKET`, else the daemon's default path, and
///   checks the protocol's major version with `hello`.
/// - Pipelined: any number of threads (or tasks) may have requests in flight on the one
///   connection, and requests made while another is being written go out with it. One
///   thread, shared by the process's clients, connects, reads and reconnects them all,
///   hands each reply to its caller by request id, and writes the requests `send(_:) async`
///   makes while others are in flight (no job on Swift's cooperative pool, which a
///   program's blocking code may hold).
/// - When the daemon goes away, requests fail at once with `.unreachable` and the client
///   reconnects in the background, waiting `reconnectDelay.lowerBound` seconds after a
///   failed attempt and doubling up to `reconnectDelay.upperBound`.
/// - A request unanswered within its time limit fails with `.timeout`, and the connection
///   is then treated as broken: it takes no new requests, and is replaced once those in
///   flight have ended, each at its own limit. A hung daemon costs each caller at most one
///   time limit.
/// - With `subscribe`, the connection subscribes to changes and ``Event/changed(generation:changes:)``
///   reaches `onEvent`, on that shared thread, as every event does: a handler must not
///   block (it would hold back the replies of every client in the process) nor wait for a
///   reply.
///
/// ```swift
/// let client = LocalizationClient()
/// if case .lookup(let result) = try client.send(.lookup(key: "多言語化", languages: ["ja"], table: nil)) {
///     print(result.value)
/// }
/// ```
public final class LocalizationClient: Sendable {
    /// What happened to the connection, as `onEvent` hears it.
    public enum Event: Sendable, Hashable {
        /// A connection is up: `hello` answered (its fields here) and, when asked,
        /// `subscribe` too. Events from before it were lost: assume everything changed.
        case connected(hello: [String: WireValue])
        /// The daemon reloaded: `changes` lists the tables whose content changed.
        case changed(generation: UInt64, changes: [WireTableChange])
        /// The connection is gone; reconnecting has begun.
        case disconnected(DaemonConnectionError)
    }

    /// The socket path this client connects to.
    public let socketPath: String
    /// The default time limit of one request, in seconds.
    public let timeout: Double
    private let connection: ReconnectingConnection

    /// Creates a client and makes its first connection attempt before returning (at most
    /// `timeout` seconds); later attempts happen in the background.
    ///
    /// - Parameters:
    ///   - socketPath: the daemon's socket; `nil` means `L10N_SOCKET`, else the default.
    ///   - timeout: seconds a request may wait for its reply.
    ///   - subscribe: whether to subscribe to change events on every connection.
    ///   - reconnectDelay: the first and the longest wait between connection attempts.
    ///   - onEvent: told about connections, disconnections and changes, on the process's connection thread.
    public init(
        socketPath: String? = nil, timeout: Double = 1, subscribe: Bool = false,
        reconnectDelay: ClosedRange<Double> = 0.05...1,
        onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
        let path = socketPath ?? DaemonConnection.socketPath(environment: ProcessInfo.processInfo.environment)
        self.socketPath = path
        self.timeout = timeout
        connection = ReconnectingConnection(
            socketPath: path, timeout: timeout, subscribe: subscribe, reconnectDelay: reconnectDelay,
            onEvent: onEvent ?? { _ in })
        connection.start()
    }

    deinit { connection.close() }

    /// Whether a connection is up now (it may still break before the next request).
    public var isConnected: Bool { connection.isConnected }

    /// Why the daemon refused the last connection attempt, in its words (at its connection
    /// limit, it says so before closing); `nil` when it did not say, or a connection is up.
    var lastRefusal: String? { connection.lastRefusal }

    /// Sends `operation` without waiting: `completion` hears the reply, or the failure when
    /// the connection ends or `timeLimit` seconds pass (`nil`: no limit — a late reply is then
    /// not a timeout and never ends the connection, as for a probe of a daemon that may be
    /// stopped). A `background` request (a `map`, which may wait for a compile) does not
    /// keep a connection draining after another request's timeout: it fails when the socket
    /// is dropped. `completion` may run on the process's connection thread.
    func submit(
        _ operation: WireOperation, timeLimit: Double?, background: Bool,
        completion: @escaping @Sendable (Result<WireReply, DaemonConnectionError>) -> Void
    ) throws(DaemonConnectionError) {
        _ = try connection.submit(operation, timeLimit: timeLimit, background: background, completion: completion)
    }

    /// Whether this client was inherited from a parent across `fork()`: it is the parent's,
    /// and sends nothing.
    var isInherited: Bool { connection.isInherited }

    /// Makes the connection loop run this client if it could not before (no descriptor free
    /// then), at most once per second.
    func startIfStopped() { connection.startIfStopped() }

    /// Sends `operation` and waits for its reply (at most `timeout`, default the client's);
    /// an error reply comes back as `.error`, not thrown.
    ///
    /// - Throws: `.unreachable` when no connection is up (at once, without waiting),
    ///   `.timeout` when the reply is late.
    public func send(_ operation: WireOperation, timeout: Double? = nil) throws(DaemonConnectionError) -> WireReply {
        let box = Mutex<Result<WireReply, DaemonConnectionError>?>(nil)
        let semaphore = DispatchSemaphore(value: 0)
        let id = try connection.submit(operation) { result in
            box.withLock { $0 = result }
            semaphore.signal()
        }
        if semaphore.wait(timeout: .now() + (timeout ?? self.timeout)) == .timedOut {
            connection.expire(id)
            semaphore.wait()  // `expire` or the reply that beat it has completed the request
        }
        return try box.withLock { $0! }.get()
    }

    /// Sends `operation` and suspends until its reply (at most `timeout`, default the
    /// client's); no thread is blocked while waiting.
    public func send(_ operation: WireOperation, timeout: Double? = nil) async throws(DaemonConnectionError)
        -> WireReply
    {
        let limit = timeout ?? self.timeout
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<WireReply, DaemonConnectionError>, Never>) in
            do throws(DaemonConnectionError) {
                _ = try connection.submit(operation, timeLimit: limit, leaveToLoop: true) {
                    continuation.resume(returning: $0)
                }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }

    /// Closes the connection and stops reconnecting; requests in flight fail with
    /// `.unreachable`. Also done when the client goes away.
    public func close() { connection.close() }
}
