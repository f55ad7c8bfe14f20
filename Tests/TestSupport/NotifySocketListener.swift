public import Foundation
import Glibc

/// What systemd's side of `$NOTIFY_SOCKET` does, for tests: a Unix datagram socket bound in
/// a temp directory that collects the `KEY=value` messages a daemon sends.
///
/// ```swift
/// let systemd = try NotifySocketListener()
/// let daemon = try DaemonProcess(resources: [r], environment: ["NOTIFY_SOCKET": systemd.path])
/// let ready = try systemd.waitFor { $0["READY"] == "1" }
/// ```
public final class NotifySocketListener {
    /// One datagram: its assignments in order, and the raw text.
    public struct Message: CustomStringConvertible {
        /// The datagram as sent.
        public var text: String
        /// Its `KEY=value` lines; a later duplicate key wins.
        public var fields: [String: String]
        /// Its keys in the order sent.
        public var keys: [String]
        /// The text, for failure messages.
        public var description: String { text.debugDescription }

        /// The value of `key`, if the datagram assigns it.
        public subscript(key: String) -> String? { fields[key] }
    }

    /// The socket's path: the value to give a daemon as `NOTIFY_SOCKET`.
    public let path: String
    /// Every message received so far, oldest first.
    public private(set) var received: [Message] = []
    private let directory: TemporaryDirectory
    private let descriptor: Int32
    private var consumed = 0

    /// Binds a fresh datagram socket in a new temp directory.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "l10nd-notify")
        path = directory.path + "/notify.sock"
        descriptor = try TestSocket.boundDatagram(at: path)
    }

    deinit { close(descriptor) }

    /// Returns the first message not yet returned that satisfies `predicate`, waiting up to
    /// `timeout` seconds for it; messages skipped on the way count as returned.
    public func waitFor(
        timeout: TimeInterval = 10, _ what: String = "the expected message",
        _ predicate: (Message) -> Bool
    ) throws -> Message {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while consumed < received.count {
                let message = received[consumed]
                consumed += 1
                if predicate(message) { return message }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, receive(waiting: left) else {
                throw JSONLineClient.Failure(description: "no \(what) within \(timeout) s; received \(received)")
            }
        }
    }

    /// Collects whatever arrives during the next `duration` seconds and returns it.
    public func collect(for duration: TimeInterval) -> [Message] {
        let start = received.count
        let deadline = Date().addingTimeInterval(duration)
        while case let left = deadline.timeIntervalSinceNow, left > 0 {
            _ = receive(waiting: left)
        }
        consumed = received.count
        return Array(received[start...])
    }

    /// Waits up to `timeout` seconds for one datagram; false when none came.
    private func receive(waiting timeout: TimeInterval) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(timeout * 1000) + 1)
        // An interrupted wait is not the end of waiting: the caller checks its deadline.
        guard ready > 0 else { return ready < 0 && errno == EINTR }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard count > 0 else { return count == 0 }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        var fields: [String: String] = [:]
        var keys: [String] = []
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            fields[key] = String(line[line.index(after: equals)...])
            keys.append(key)
        }
        received.append(Message(text: text, fields: fields, keys: keys))
        return true
    }
}
