public import Foundation
import Glibc

/// A JSON-lines client over a Unix socket, for end-to-end tests: what `socat` does, with a
/// time limit on every read so a hung daemon fails the test instead of hanging it.
public final class JSONLineClient {
    /// A client-side failure: connect refused, timeout, or a reply that is not JSON.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to the socket at `path`, with `timeout` seconds for each read.
    public init(path: String, timeout: TimeInterval = 10) throws {
        descriptor = try TestSocket.connected(to: path, timeout: timeout)
    }

    deinit { close(descriptor) }

    /// Changes the time limit of each read.
    public func setTimeout(_ timeout: TimeInterval) {
        var value = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends raw bytes.
    public func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Sends one line (a newline is added).
    public func send(line: String) throws {
        try send(bytes: Array((line + "\n").utf8))
    }

    /// Reads one line, without its newline; `nil` when the daemon closed the connection.
    public func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(
                    description: errno == EAGAIN
                        ? "no reply within the time limit" : "recv: \(String(cString: strerror(errno)))")
            }
            buffer += chunk[..<count]
        }
    }

    /// Reads one line and parses it as a JSON object.
    public func readObject() throws -> [String: Any] {
        guard let line = try readLine() else { throw Failure(description: "the daemon closed the connection") }
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(line)")
        }
        return object
    }

    /// Sends `request` as one JSON line and returns the reply object.
    public func request(_ request: [String: Any]) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: request)
        try send(line: String(decoding: data, as: UTF8.self))
        return try readObject()
    }
}
