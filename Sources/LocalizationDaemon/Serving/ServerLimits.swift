/// The limits that keep one client from hurting the daemon or other clients.
package struct ServerLimits: Sendable, Hashable {
    /// The largest request line or frame payload; a larger one gets `too_large` and the
    /// connection is closed.
    package var maxMessageBytes: Int
    /// Connections served at once; beyond it a new connection gets an `unavailable` error
    /// line and is closed. The last ``operatorSlots`` of them are kept for root and the
    /// daemon's own user.
    package var maxConnections: Int
    /// Connections, within ``maxConnections``, that only root and the daemon's own user may
    /// take (`SO_PEERCRED` at accept): at the limit, monitoring (`l10nctl status`) still gets
    /// in. At most all but one of ``maxConnections`` (``keptForOperators``).
    package var operatorSlots: Int
    /// Seconds a connection may stay silent — no request arriving whole, no reply going
    /// out — before it is closed. Subscribers, and connections waiting for the handler's
    /// reply, are never idle; a client that leaves its replies unread is silent.
    package var idleTimeout: Double
    /// Bytes of replies a connection may have unsent (written to its buffer and held behind
    /// an unanswered request) before the server stops reading and dispatching its requests
    /// until the client reads some: flow control, not a cut-off. One reply may take a
    /// connection past it (a table larger than the limit is streamed whole); unread change
    /// events past it cut a subscriber off, as events cannot wait.
    package var maxOutputBufferBytes: Int
    /// Requests a connection may have waiting for the handler before the server stops
    /// reading from it until some are answered.
    package var maxPendingRequests: Int
    /// Seconds a graceful stop waits for pending replies before closing connections anyway.
    package var drainTimeout: Double
    /// Seconds a request may take to arrive, from its first byte to its last; a connection
    /// whose partial request is older is closed (a client trickling bytes would otherwise
    /// hold its connection, and the idle timeout, forever).
    package var requestTimeout: Double
    /// Seconds a draining connection may go without its socket accepting a byte of what it
    /// is owed before it is closed: a stop must not wait for a client that does not read.
    package var drainStallTimeout: Double

    /// Creates limits; the defaults suit a host-local daemon.
    package init(
        maxMessageBytes: Int = 1 << 20,
        maxConnections: Int = 1024,
        operatorSlots: Int = 4,
        idleTimeout: Double = 300,
        maxOutputBufferBytes: Int = 4 << 20,
        maxPendingRequests: Int = 1024,
        drainTimeout: Double = 5,
        requestTimeout: Double = 10,
        drainStallTimeout: Double = 0.5
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxConnections = maxConnections
        self.operatorSlots = operatorSlots
        self.idleTimeout = idleTimeout
        self.maxOutputBufferBytes = maxOutputBufferBytes
        self.maxPendingRequests = maxPendingRequests
        self.drainTimeout = drainTimeout
        self.requestTimeout = requestTimeout
        self.drainStallTimeout = drainStallTimeout
    }

    /// The connections kept for the operator: ``operatorSlots``, but never every one of
    /// ``maxConnections`` (a daemon allowed one connection keeps none).
    package var keptForOperators: Int {
        max(0, min(operatorSlots, maxConnections - 1))
    }
}
