import CMicroHTTPD
import Glibc
import LocalizationSockets

/// `metrics_listen`'s HTTP endpoint: `GET /metrics` (the same text `l10nctl metrics` prints),
/// `/healthz` and `/readyz`, served by libmicrohttpd on its own internal thread, apart from
/// the serving path: a scrape never waits on the lookup loop, and a slow scraper never holds
/// a lookup. At most ``connectionLimit`` connections, each closed after
/// ``timeoutSeconds`` idle; MHD parses HTTP (no parser here).
final class MetricsHTTPServer: Sendable {
    /// What the endpoints answer from, asked on MHD's thread for each request.
    struct Answers: Sendable {
        /// The exposition text.
        let metrics: @Sendable () -> String
        /// nil when ready, else why not (for `/readyz`'s 503 body).
        let notReady: @Sendable () -> String?
    }

    /// Scrapers and probes are few: more wait in the kernel's backlog.
    static let connectionLimit: UInt32 = 16
    static let timeoutSeconds: UInt32 = 10

    /// Where it listens, as configured.
    let address: MetricsAddress
    /// The TCP port bound (the kernel's choice for port 0); nil for a Unix socket.
    let port: UInt16?
    /// MHD's daemon handle; MHD is thread-safe for start and stop, which is all done with it.
    private nonisolated(unsafe) let daemon: OpaquePointer
    private let context: Unmanaged<Context>
    private let listener: SocketListener?

    /// The answers, boxed for MHD's `void *` context.
    private final class Context: Sendable {
        let answers: Answers
        init(_ answers: Answers) { self.answers = answers }
    }

    /// Binds `address` and starts serving.
    ///
    /// - Throws: ``SocketError`` naming the address when it cannot be bound.
    init(address: MetricsAddress, answers: Answers) throws {
        self.address = address
        let context = Unmanaged.passRetained(Context(answers))
        var started: OpaquePointer?
        switch address {
        case .unix(let path):
            let listener = try SocketListener(path: path, permissions: 0o660)
            self.listener = listener
            started = l10nd_mhd_start(
                listener.descriptor, nil, 0, Self.connectionLimit, Self.timeoutSeconds, Self.handle,
                context.toOpaque())
        case .ipv4, .ipv6:
            listener = nil
            started =
                address.withSocketAddress { socketAddress, isIPv6 -> OpaquePointer? in
                    l10nd_mhd_start(
                        -1, socketAddress, isIPv6 ? 1 : 0, Self.connectionLimit, Self.timeoutSeconds, Self.handle,
                        context.toOpaque())
                } ?? nil
        }
        guard let started else {
            let reason = errno
            listener?.close()
            context.release()
            throw SocketError(code: .systemCall, errno: reason, message: address.cannotListen(errno: reason))
        }
        daemon = started
        self.context = context
        let bound = l10nd_mhd_port(started)
        port = listener == nil ? bound : nil
    }

    /// Where it listens in fact: ``address`` with the port the kernel chose for port 0.
    var bound: MetricsAddress {
        switch address {
        case .ipv4(let host, _): .ipv4(host, port: port ?? 0)
        case .ipv6(let host, _): .ipv6(host, port: port ?? 0)
        case .unix: address
        }
    }

    /// Where scrapers find it, for the log: `http://127.0.0.1:9464/metrics` or the socket path.
    var url: String {
        switch address {
        case .ipv4(let host, _): "http://\(host):\(port ?? 0)/metrics"
        case .ipv6(let host, _): "http://[\(host)]:\(port ?? 0)/metrics"
        case .unix(let path): "http://localhost/metrics on \(path)"
        }
    }

    /// Stops MHD's thread and closes every connection; a Unix socket's file is removed.
    func stop() {
        // Quiesced first, a socket we bound is ours to close (and its file to remove).
        if listener != nil { _ = MHD_quiesce_daemon(daemon) }
        MHD_stop_daemon(daemon)
        listener?.close()
        context.release()
    }

    /// MHD's request callback: answers on the first call, as no endpoint takes a body.
    private static let handle: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, _, uploadSize, _ in
        guard let context, let connection, let url, let method else { return l10nd_mhd_no() }
        // A request body (there should be none) is read and ignored before the answer.
        if let uploadSize, uploadSize.pointee != 0 {
            uploadSize.pointee = 0
            return l10nd_mhd_yes()
        }
        let answers = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().answers
        let reply = MetricsHTTPServer.reply(
            method: String(cString: method), path: String(cString: url), answers: answers)
        return MetricsHTTPServer.queue(reply, on: connection)
    }

    /// One answer: status, content type, body.
    struct Reply: Equatable {
        var status: UInt32
        var contentType: String
        var body: String
    }

    /// What `method path` gets. Only GET and HEAD (MHD drops HEAD's body).
    static func reply(method: String, path: String, answers: Answers) -> Reply {
        let text = "text/plain; charset=utf-8"
        guard method == "GET" || method == "HEAD" else {
            return Reply(status: 405, contentType: text, body: "only GET and HEAD are served\n")
        }
        switch path {
        case "/metrics": return Reply(status: 200, contentType: OpenMetricsText.contentType, body: answers.metrics())
        case "/healthz": return Reply(status: 200, contentType: text, body: "ok\n")
        case "/readyz":
            if let reason = answers.notReady() { return Reply(status: 503, contentType: text, body: reason + "\n") }
            return Reply(status: 200, contentType: text, body: "ready\n")
        default: return Reply(status: 404, contentType: text, body: "not found: /metrics, /healthz and /readyz are\n")
        }
    }

    private static func queue(_ reply: Reply, on connection: OpaquePointer) -> MHD_Result {
        let body = Array(reply.body.utf8)
        return body.withUnsafeBytes {
            l10nd_mhd_reply(connection, reply.status, reply.contentType, $0.baseAddress, $0.count)
        }
    }
}
