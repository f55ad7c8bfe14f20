import Foundation
import Glibc
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import TestSupport
import Testing

/// Binding, stale sockets, refusals, permissions and socket activation.
@Suite struct SocketServerListenerTests {
    /// Binds a socket at `path` the raw way, optionally listening, and returns its descriptor.
    private func rawSocket(at path: String, listening: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        if listening { try #require(listen(descriptor, 8) == 0) }
        return descriptor
    }

    @Test func socketFileHasMode0660() throws {
        let directory = try TemporarySocketDirectory()
        let listener = try SocketListener(path: directory.socketPath)
        var status = stat()
        try #require(lstat(directory.socketPath, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o660)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        listener.close()
        #expect(!FileManager.default.fileExists(atPath: directory.socketPath))
    }

    @Test func staleSocketFileIsReplaced() throws {
        let directory = try TemporarySocketDirectory()
        // A crashed daemon: the file stays, nobody listens.
        Glibc.close(try rawSocket(at: directory.socketPath, listening: false))
        #expect(FileManager.default.fileExists(atPath: directory.socketPath))
        let server = SocketServer(listener: try SocketListener(path: directory.socketPath), handler: TestHandler())
        server.start()
        defer { server.stopAndWait() }
        let client = try TestClient(path: directory.socketPath)
        client.send(#"{"op":"hello"}"# + "\n")
        #expect(try client.readLine() == #"{"ok":true,"protocol":1}"#)
    }

    @Test func pathThatIsNotASocketIsNeverRemoved() throws {
        let directory = try TemporarySocketDirectory()
        try Data("precious".utf8).write(to: URL(fileURLWithPath: directory.socketPath))
        #expect {
            _ = try SocketListener(path: directory.socketPath)
        } throws: { error in
            let error = error as? SocketError
            return error?.code == .notASocket
                && error?.message == "\(directory.socketPath) exists and is not a socket; refusing to replace it"
        }
        #expect(try String(contentsOfFile: directory.socketPath, encoding: .utf8) == "precious")
    }

    @Test func secondListenerIsRefusedAndTheFirstKeepsItsSocket() throws {
        let directory = try TemporarySocketDirectory()
        let first = try SocketListener(path: directory.socketPath)
        #expect {
            _ = try SocketListener(path: directory.socketPath)
        } throws: { error in
            let error = error as? SocketError
            return error?.code == .addressInUse
                && error?.message == "another l10nd is already listening on \(directory.socketPath)"
        }
        #expect(FileManager.default.fileExists(atPath: directory.socketPath))
        _ = try TestClient(path: directory.socketPath)
        first.close()
    }

    @Test func tooLongPathIsRefused() throws {
        let path = "/tmp/" + String(repeating: "x", count: 120)
        #expect(throws: SocketError.self) { _ = try SocketListener(path: path) }
    }

    @Test func adoptedListenerServesAndKeepsItsFile() throws {
        let directory = try TemporarySocketDirectory()
        let descriptor = try rawSocket(at: directory.socketPath, listening: true)
        let listener = try SocketListener(adopting: descriptor, path: directory.socketPath)
        #expect(listener.isAdopted)
        let server = SocketServer(listener: listener, handler: TestHandler())
        server.start()
        // Stopped below on purpose (the file must outlive the stop); here too, for a throw.
        defer { server.stopAndWait() }
        let client = try TestClient(path: directory.socketPath)
        client.send(#"{"op":"hello"}"# + "\n")
        #expect(try client.readLine() == #"{"ok":true,"protocol":1}"#)
        server.stopAndWait()
        #expect(FileManager.default.fileExists(atPath: directory.socketPath))
    }

    @Test func adoptingANonListeningDescriptorFails() throws {
        let directory = try TemporarySocketDirectory()
        let descriptor = try rawSocket(at: directory.socketPath, listening: false)
        defer { Glibc.close(descriptor) }
        #expect { _ = try SocketListener(adopting: descriptor) } throws: {
            ($0 as? SocketError)?.code == .badActivation
        }
        let pipeEnds = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        defer { pipeEnds.deallocate() }
        try #require(pipe(pipeEnds) == 0)
        defer {
            Glibc.close(pipeEnds[0])
            Glibc.close(pipeEnds[1])
        }
        #expect { _ = try SocketListener(adopting: pipeEnds[0]) } throws: {
            ($0 as? SocketError)?.code == .badActivation
        }
    }

    static let activationCases: [(environment: [String: String], pid: Int32, expected: [Int32])] = [
        (["LISTEN_PID": "42", "LISTEN_FDS": "1"], 42, [3]),
        (["LISTEN_PID": "42", "LISTEN_FDS": "2"], 42, [3, 4]),
        (["LISTEN_PID": "41", "LISTEN_FDS": "1"], 42, []),
        (["LISTEN_FDS": "1"], 42, []),
        (["LISTEN_PID": "42", "LISTEN_FDS": "0"], 42, []),
        (["LISTEN_PID": "42", "LISTEN_FDS": "many"], 42, []),
        ([:], 42, []),
    ]

    @Test func socketActivationReadsTheEnvironment() {
        for (environment, pid, expected) in Self.activationCases {
            #expect(
                SocketActivation.descriptors(environment: environment, processID: pid) == expected, "\(environment)")
        }
    }
}
