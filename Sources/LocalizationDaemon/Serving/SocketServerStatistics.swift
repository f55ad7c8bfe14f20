/// The socket server's counters, for `status` and `STATUS=` lines.
package struct SocketServerStatistics: Sendable, Hashable {
    /// Connections accepted since start.
    package var connectionsAccepted = 0
    /// Connections open now.
    package var connectionsCurrent = 0
    /// Connections closed at once because `maxConnections` were open.
    package var connectionsRefused = 0
    /// Connections closed with replies left unread: a subscriber over `maxOutputBufferBytes`
    /// of unread events, or a client whose socket accepted nothing for `idleTimeout`.
    package var connectionsCutOff = 0
    /// Connections closed for staying idle longer than `idleTimeout`.
    package var connectionsTimedOut = 0
    /// Connections closed because a request took longer than `requestTimeout` to arrive.
    package var requestsTimedOut = 0
    /// Times accepting paused (for 100 ms) because the process was out of descriptors.
    package var acceptPauses = 0
    /// Requests received, well-formed or not.
    package var requests = 0
    /// Error replies sent (malformed requests, handler errors, size limits).
    package var errors = 0
    /// Connections subscribed to change events now.
    package var subscribers = 0
    /// Events broadcast since start.
    package var eventsBroadcast = 0

    /// Creates zeroed counters.
    package init() {}
}
