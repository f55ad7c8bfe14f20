import Dispatch
import Foundation
import Glibc
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import TestSupport
import Testing

/// A blocking test client over a real Unix socket; every read has a timeout, so a
/// misbehaving server fails the test instead of hanging it.
final class TestClient {
    let descriptor: Int32
    private var framer = MessageFramer(maxMessageBytes: 64 << 20)

    init(path: String) throws {
        // A local until connected: a class whose init throws after its stored properties are
        // set runs its deinit, which would close the descriptor a second time — by then
        // perhaps another thread's newly opened file.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result != 0 {
            let code = errno
            Glibc.close(descriptor)
            throw WireError(code: .internal, message: "connect failed: errno \(code)")
        }
        self.descriptor = descriptor
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Sends everything; false if the server closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    func send(_ request: WireRequest, as encoding: WireEncoding) {
        send(WireCodec.encode(request, as: encoding))
    }

    /// Waits up to `timeout` seconds for readable data; returns the bytes read, [] at EOF,
    /// nil on timeout.
    private func readChunk(timeout: Double) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(timeout * 1000))
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return [] }
        return Array(buffer.prefix(count))
    }

    /// The next message from the server, or nil on timeout or EOF.
    func readMessage(timeout: Double = 5) -> FramedMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let message = framer.nextMessage() { return message }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let chunk = readChunk(timeout: remaining), !chunk.isEmpty else { return nil }
            framer.append(contentsOf: chunk)
        }
    }

    /// The next reply or event, decoded.
    func readServerMessage(timeout: Double = 5) throws -> WireServerMessage {
        let message = try #require(readMessage(timeout: timeout), "no message from the server")
        return try WireCodec.decodeServerMessage(message)
    }

    /// The next JSON line as text.
    func readLine(timeout: Double = 5) throws -> String {
        guard case .jsonLine(let line)? = readMessage(timeout: timeout) else {
            throw WireError(code: .internal, message: "expected a JSON line")
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Reads and discards until the server closes the connection; false on timeout.
    func waitForClose(timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return true }
        }
    }
}

/// A handler with predictable answers: lookups echo their key, `reload` answers late from
/// another thread, `status` reports the peer, `missing` fails.
struct TestHandler: WireRequestHandler {
    var reloadDelay: Double = 0.2
    /// Whether lookups take the server's fast path (``answerAtOnce(_:from:)``), as the
    /// daemon's lookups do, instead of the reply closure.
    var answersLookupsAtOnce = false

    func answerAtOnce(_ request: WireRequest, from peer: PeerInfo) -> WireReply? {
        guard answersLookupsAtOnce, case .lookup(let key, let languages, _, _, _) = request.operation else {
            return nil
        }
        return Self.lookupReply(key, languages: languages)
    }

    /// A lookup's answer: the key in «», or `big:N` as N bytes.
    static func lookupReply(_ key: String, languages: [String]) -> WireReply {
        if key.hasPrefix("big:"), let size = Int(key.dropFirst(4)) {
            return .lookup(
                WireLookupResult(value: String(repeating: "x", count: size), found: true, language: "en", generation: 1)
            )
        }
        return .lookup(
            WireLookupResult(value: "«\(key)»", found: true, language: languages.first ?? "en", generation: 1))
    }

    func handle(_ request: WireRequest, from peer: PeerInfo, reply: @escaping @Sendable (WireReply) -> Void) {
        switch request.operation {
        case .lookup(let key, let languages, _, _, _):
            reply(Self.lookupReply(key, languages: languages))
        case .batch(let keys, _, _, _):
            reply(.batch(WireBatchResult(values: keys.map { "«\($0)»" }, found: keys.map { _ in true }, generation: 1)))
        case .table:
            reply(.table(WireTableResult(entries: ["a": "A"], languages: ["a": "en"], generation: 1)))
        case .reload:
            DispatchQueue.global().asyncAfter(deadline: .now() + reloadDelay) { reply(.fields(["generation": 2])) }
        case .status:
            reply(.fields(["uid": .integer(Int64(peer.uid)), "pid": .integer(Int64(peer.pid))]))
        case .hello:
            reply(.fields(["protocol": .integer(Int64(WireProtocolVersion.major))]))
        case .missing:
            reply(.error(WireError(code: .forbidden, message: "not for you")))
        case .languages, .subscribe, .reset, .metrics, .map, .chain:
            reply(.ok)
        }
    }
}

/// A running server on a fresh socket, stopped by ``shutDown()`` (called in a `defer`, so a
/// failing expectation never leaves it running).
struct RunningServer {
    let directory: TemporarySocketDirectory
    let server: SocketServer

    init(limits: ServerLimits = ServerLimits(), handler: any WireRequestHandler = TestHandler()) throws {
        directory = try TemporarySocketDirectory()
        server = SocketServer(
            listener: try SocketListener(path: directory.socketPath), handler: handler, limits: limits)
        server.start()
    }

    var path: String { directory.socketPath }

    func client() throws -> TestClient { try TestClient(path: path) }

    /// Stops the server and waits for it. Synchronous on purpose, like every wait in these
    /// tests: the server runs on its own Dispatch queue, and a test that blocked Swift's
    /// cooperative pool while awaiting could starve the other tests' awaits on 2 cores.
    func shutDown() {
        server.stopAndWait()
    }

    /// Polls `condition` until it holds or `timeout` passes.
    func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}

extension SocketServer {
    /// Stops the server and blocks until it has drained (at most 30 s).
    func stopAndWait() {
        let stopped = DispatchSemaphore(value: 0)
        stop { stopped.signal() }
        _ = stopped.wait(timeout: .now() + 30)
    }
}
