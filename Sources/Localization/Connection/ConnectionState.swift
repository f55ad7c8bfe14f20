import LocalizationWire

/// Where a ``LocalizationClient``'s connection stands. Only the ``ConnectionLoop`` thread
/// opens and drops sockets, so only it moves the state between sockets; callers on other
/// threads read it to write requests, and move it from `connected` to `draining` (a late
/// reply, a failed write) or to `closed`.
///
/// ```
/// waitingToReconnect ─(retryAt)→ handshaking ─(hello, subscribe answered)→ connected
///        ↑   ↑ attempt failed ──────┘                                      │ timeout,
///        │   └──────────── read failed, or draining with nothing in flight ┤ write failed
///        └─ (at once)                                               draining ←┘
/// any state ─ close() → closed
/// ```
enum ConnectionState: Sendable {
    /// No socket: the next attempt is at `retryAt` (uptime nanoseconds; 0 means at once).
    case waitingToReconnect(retryAt: UInt64)
    /// A socket is open and `step`'s request was sent; the attempt fails at `deadline`.
    case handshaking(RequestWriter, step: HandshakeStep, deadline: UInt64)
    /// Up: requests are written through the writer, replies read by the loop.
    case connected(RequestWriter)
    /// A request timed out or a write failed: no new requests; the socket is dropped once
    /// those in flight have ended (each answered, or failed at its own time limit).
    case draining(RequestWriter)
    /// Closed by its owner: nothing happens any more.
    case closed

    /// The handshake request awaiting its reply.
    enum HandshakeStep: Sendable {
        case hello
        /// `hello` was answered (its fields here) and `subscribe` sent.
        case subscribe(hello: [String: WireValue])
    }

    /// The writer requests in flight go out through: connected or draining.
    var liveWriter: RequestWriter? {
        switch self {
        case .connected(let writer), .draining(let writer): writer
        case .waitingToReconnect, .handshaking, .closed: nil
        }
    }

    /// Whether the owner closed the connection.
    var isClosed: Bool {
        if case .closed = self { true } else { false }
    }
}
