public import Foundation
import Glibc

/// A Unix stream connection that sends and receives raw bytes, for tests that misbehave on
/// purpose: garbage, oversized frame headers, half frames, floods of unread requests.
///
/// Unlike ``JSONLineClient`` it bounds sends as well as reads (`SO_SNDTIMEO`), so a daemon
/// that stops reading a flooding client fails the test instead of blocking it forever, and
/// it reads binary replies, which carry no newline.
public final class RawSocketClient {
    /// How a send ended.
    public enum SendOutcome: Sendable, Equatable {
        /// Every byte went out.
        case sent
        /// The daemon closed the connection (`EPIPE` or `ECONNRESET`).
        case closedByPeer
        /// The socket buffer stayed full for the whole send time limit.
        case timedOut
    }

    private var descriptor: Int32

    /// Connects to the socket at `path`; each send and each read may take `timeout` seconds.
    public init(path: String, timeout: TimeInterval = 10) throws {
        descriptor = try TestSocket.connected(to: path, timeout: timeout)
    }

    deinit { close() }

    /// Closes the connection now. Idempotent.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends `bytes`, saying whether they all went out, the daemon hung up, or the send
    /// time limit passed with the socket buffer full.
    @discardableResult
    public func send(_ bytes: [UInt8]) throws -> SendOutcome {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                switch errno {
                case EINTR: continue
                case EPIPE, ECONNRESET: return .closedByPeer
                case EAGAIN: return .timedOut
                case let code: throw JSONLineClient.Failure(description: "send: \(String(cString: strerror(code)))")
                }
            }
            offset += written
        }
        return .sent
    }

    /// Stops sending (`shutdown(SHUT_WR)`), as `socat` does at the end of its input.
    public func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads until the daemon closes the connection and returns everything it sent, at most
    /// `limit` bytes (more is a failure: a daemon that never stops talking).
    ///
    /// - Throws: when no byte and no end arrive within the read time limit.
    public func readToEnd(limit: Int = 16 << 20) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            if count < 0 {
                switch errno {
                case EINTR: continue
                // A reset after the daemon's last reply still ends the conversation.
                case ECONNRESET: return received
                case EAGAIN:
                    throw JSONLineClient.Failure(
                        description: "the connection stayed open past the time limit after \(received.count) bytes")
                case let code: throw JSONLineClient.Failure(description: "recv: \(String(cString: strerror(code)))")
                }
            }
            received += chunk[..<count]
            guard received.count <= limit else {
                throw JSONLineClient.Failure(description: "more than \(limit) bytes without the connection closing")
            }
        }
    }

    /// Reads exactly `count` bytes (a binary frame's header, then its payload).
    ///
    /// - Throws: when the daemon closes the connection first or the read time limit passes.
    public func read(exactly count: Int) throws -> [UInt8] {
        var received = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = received[offset...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got == 0 {
                throw JSONLineClient.Failure(
                    description: "the daemon closed the connection after \(offset) of \(count) bytes")
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw JSONLineClient.Failure(
                    description: errno == EAGAIN
                        ? "no reply within the time limit" : "recv: \(String(cString: strerror(errno)))")
            }
            offset += got
        }
        return received
    }

    /// Reads what has arrived, at most `count` bytes, waiting for the first; empty once the
    /// daemon has closed the connection (for a reader that paces itself).
    ///
    /// - Throws: when nothing arrives within the read time limit.
    public func read(upTo count: Int) throws -> [UInt8] {
        var received = [UInt8](repeating: 0, count: count)
        while true {
            let got = received.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got >= 0 { return Array(received[..<got]) }
            switch errno {
            case EINTR: continue
            case ECONNRESET: return []
            case EAGAIN: throw JSONLineClient.Failure(description: "no bytes within the time limit")
            case let code: throw JSONLineClient.Failure(description: "recv: \(String(cString: strerror(code)))")
            }
        }
    }

    /// Whether the daemon has closed the connection: a read that waits at most `timeout`
    /// seconds for the end, discarding any bytes that arrive first.
    public func isClosedByPeer(within timeout: TimeInterval) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            let ready = poll(&poller, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
        }
    }
}
