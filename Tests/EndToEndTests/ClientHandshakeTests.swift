import Foundation
import Glibc
import TestSupport
import Testing

@testable import Localization

/// The handshake a ``LocalizationClient`` makes on every connection, against a listener
/// that is no daemon.
@Suite struct ClientHandshakeTests {
    /// A listener that accepts and closes at once, without a word (a daemon dying after
    /// `accept`): the attempt ends when the socket does, not at the 10-second time limit,
    /// and the client is not connected.
    @Test func aSocketClosedDuringTheHandshakeEndsTheAttemptAtOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/mute.sock"
        let listener = try Self.listen(at: path)
        defer { close(listener) }
        let accepting = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                close(connection)
            }
        }
        accepting.start()
        let started = Date()
        let client = LocalizationClient(socketPath: path, timeout: 10)
        defer { client.close() }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!client.isConnected)
        #expect(throws: DaemonConnectionError.self) { try client.send(.hello) }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// A listening Unix stream socket at `path`; what connects waits in its backlog until accepted.
    static func listen(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && Glibc.listen(descriptor, 16) == 0)
        return descriptor
    }
}
