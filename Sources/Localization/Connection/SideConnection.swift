import Synchronization

/// A second connection to the daemon a ``DaemonLookups`` reaches, for requests whose reply
/// may take seconds: the daemon keeps each connection's order, so every reply after such a
/// request on the same connection would wait for it. `map` waits for a compile (seconds for
/// a million strings), `table` for a whole table resolved (about a second for 100,000
/// strings on a loaded daemon); on the lookups' own connection either would hold up the
/// one-key `lookup` a new process makes meanwhile, and on one shared connection a `table`
/// would wait for a compile.
///
/// Opened by the first request after each new connection of the lookups' client, so that it
/// reaches the daemon that client reached; replaced (the old one closed) when the client's
/// connection number moves on.
final class SideConnection: Sendable {
    private let kept = Mutex<(connectionNumber: Int, client: LocalizationClient)?>(nil)
    private let socketPath: String
    private let timeout: Double

    /// A side connection to `socketPath`, with `timeout` seconds per request and handshake
    /// (requests made in the background may wait longer than a lookup's limit, and so may the
    /// handshake of a loaded daemon).
    init(socketPath: String, timeout: Double) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    /// The connection for while the lookups' client is on connection `connectionNumber`: the
    /// one kept, else a new one, which replaces it.
    func client(for connectionNumber: Int) -> LocalizationClient {
        // Opened under the lock: several `table` fetches may begin at once, and each must
        // not replace (and close) the connection another has just opened and uses.
        let (client, replaced) = kept.withLock { kept -> (LocalizationClient, LocalizationClient?) in
            if let kept, kept.connectionNumber == connectionNumber { return (kept.client, nil) }
            let opened = LocalizationClient(socketPath: socketPath, timeout: timeout, subscribe: false)
            defer { kept = (connectionNumber, opened) }
            return (opened, kept?.client)
        }
        replaced?.close()
        return client
    }

    /// Closes the connection kept, if any.
    func close() {
        kept.withLock { $0?.client }?.close()
    }
}
