import Foundation
import Glibc
import LocalizationSockets
import TestSupport
import Testing

/// Sealed memory between two processes over a real Unix socket, the other one a Python
/// program (`Tests/Fixtures/SharedMemory/sealed_memory_peer.py`) that uses the kernel as a
/// client in C would: it maps what l10nd's side sends and cannot change it, and what an
/// impostor sends unsealed is refused.
@Suite struct SealedMemoryProcessTests {
    static let peer = PackagePaths.root + "/Tests/Fixtures/SharedMemory/sealed_memory_peer.py"

    @Test func anotherProcessMapsTheSealedFileAndCannotChangeIt() throws {
        let listener = try UnixListener()
        let table = "tables of generation 7 for every language"
        let file = try SealedMemoryFile(name: "l10nd-test", contents: Array(table.utf8))
        let child = Self.runPeer("receive", listener.path)
        let connection = try listener.accept()
        _ = try Array("tables 7".utf8).withUnsafeBytes {
            try DescriptorPassing.send($0, attaching: file.descriptor, over: connection.rawValue)
        }
        let output = try child.value()
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.split(separator: "\n") == [
                "bytes=tables 7 descriptors=1 truncated=False", "sealed=True", "access=read-only",
                "size=\(table.utf8.count) content=\(table)",
                // Refused for want of write access (a read-only descriptor) before any seal is consulted.
                "write=EBADF", "shrink=EINVAL", "grow=EINVAL", "map-writable=EACCES", "add-seal=EPERM",
            ])
    }

    @Test func aMemoryFileSentUnsealedIsRefused() throws {
        let listener = try UnixListener()
        let child = Self.runPeer("send-unsealed", listener.path)
        let error: SocketError
        do {
            let connection = try listener.accept()
            let buffer = ReceiveBuffer()
            var received = try buffer.receive(from: connection.rawValue)
            #expect(buffer.text(count: received.count) == "unsealed")
            let descriptor = try received.requireDescriptor()
            error = try #require(throws: SocketError.self) {
                _ = try SealedMemoryMapping(verifying: descriptor, size: "mutable table".utf8.count)
            }
        }  // the connection closes here, which ends the peer
        #expect(error.code == .unsealedMemory)
        let output = try child.value()
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// Starts the Python peer in `mode` against the socket at `path`; its output when it ends.
    static func runPeer(_ mode: String, _ path: String) -> OtherThread<ProcessOutput> {
        OtherThread { try ProcessRunner.run("/usr/bin/python3", [peer, mode, path], timeout: 30) }
    }
}

/// A listening Unix stream socket at a fresh short path, for one test's peer process.
final class UnixListener {
    let path: String
    private let directory: TemporarySocketDirectory
    private let descriptor: FileDescriptor

    init() throws {
        directory = try TemporarySocketDirectory()
        path = directory.socketPath
        let address = try #require(UnixSocketAddress(path))
        descriptor = try FileDescriptor(systemCall: "socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        _ = try address.withSockaddr { pointer, length in
            try SystemCall.run("bind") { bind(descriptor.rawValue, pointer, length) }
        }
        try SystemCall.run("listen") { listen(descriptor.rawValue, 1) }
    }

    /// The next connection, waiting at most `timeout` seconds for it.
    func accept(timeout: Int32 = 20_000) throws -> FileDescriptor {
        var ready = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, timeout) == 1, "no peer connected within \(timeout) ms")
        let connection = try FileDescriptor(systemCall: "accept") { Glibc.accept(descriptor.rawValue, nil, nil) }
        _ = fcntl(connection.rawValue, F_SETFD, FD_CLOEXEC)
        return connection
    }
}
