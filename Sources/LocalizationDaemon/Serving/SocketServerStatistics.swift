/// The socket server's counters, for `status` and `STATUS=` lines.
public struct SocketServerStatistics: Sendable, Hashable {
    /// Connections accepted since start.
    public var connectionsAccepted = 0
    /// Connections open now.
    public var connectionsCurrent = 0
    /// Connections closed at once because `maxConnections` were open.
    public var connectionsRefused = 0
    /// Connections closed with replies left unread: a subscriber over `maxOutputBufferBytes`
    /// of unread events, or a client whose socket accepted nothing for `idleTimeout`.
    public var connectionsCutOff = 0
    /// Connections closed for staying idle longer than `idleTimeout`.
    public var connectionsTimedOut = 0
    /// Connections closed because a request took longer than `requestTimeout` to arrive.
    public var requestsTimedOut = 0
    /// Times accepting paused (for 100 ms) because the process was out of descriptors.
    public var acceptPauses = 0
    /// Requests received, well-formed or not.
    public var requests = 0
    /// Error replies sent (malformed requests, handler errors, size limits).
    public var errors = 0
    /// Connections subscribed to change events now.
    public var subscribers = 0
    /// Events broadcast since start.
    public var eventsBroadcast = 0

    /// Creates zeroed counters.
    public init() {}
}
