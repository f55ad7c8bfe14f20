/// The limits that keep one client from hurting the daemon or other clients.
public struct ServerLimits: Sendable, Hashable {
    /// The largest request line or frame payload; a larger one gets `too_large` and the
    /// connection is closed.
    public var maxMessageBytes: Int
    /// Connections served at once; beyond it a new connection gets an `unavailable` error
    /// line and is closed.
    public var maxConnections: Int
    /// Seconds a connection may stay silent before it is closed. Subscribers, and
    /// connections waiting for a reply, are never idle.
    public var idleTimeout: Double
    /// Bytes of replies a client may leave unread; a client over it is cut off.
    public var maxOutputBufferBytes: Int
    /// Requests a connection may have waiting for the handler before the server stops
    /// reading from it until some are answered.
    public var maxPendingRequests: Int
    /// Seconds a graceful stop waits for pending replies before closing connections anyway.
    public var drainTimeout: Double

    /// Creates limits; the defaults suit a host-local daemon.
    public init(
        maxMessageBytes: Int = 1 << 20,
        maxConnections: Int = 1024,
        idleTimeout: Double = 300,
        maxOutputBufferBytes: Int = 4 << 20,
        maxPendingRequests: Int = 1024,
        drainTimeout: Double = 5
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.maxOutputBufferBytes = maxOutputBufferBytes
        self.maxPendingRequests = maxPendingRequests
        self.drainTimeout = drainTimeout
    }
}
