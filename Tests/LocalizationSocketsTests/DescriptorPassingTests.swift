import Foundation
import Glibc
import LocalizationSockets
import Testing

/// Descriptors sent over a real Unix stream socket pair between threads: the sealed table
/// arrives mapped intact, extra descriptors are closed, and truncated control data is an error.
@Suite struct DescriptorPassingTests {
    @Test func aSealedFileReachesAnotherThreadAndMapsThere() throws {
        let pair = try SocketPair()
        let table = Array(repeating: Array("one copy for the whole host; ".utf8), count: 1000).joined()
        let file = try SealedMemoryFile(name: "l10nd-test", contents: Array(table))
        let size = file.size
        let receiverSocket = pair.second.rawValue
        let reader = OtherThread { () throws -> (announcement: String, table: [UInt8]) in
            let buffer = ReceiveBuffer()
            var received = try buffer.receive(from: receiverSocket)
            let descriptor = try received.requireDescriptor()
            #expect(fcntl(descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0, "received close-on-exec")
            let mapping = try SealedMemoryMapping(verifying: descriptor, size: size)
            descriptor.close()
            return (buffer.text(count: received.count), mapping.withUnsafeBytes { Array($0) })
        }
        let sent = try Array("tables 7".utf8).withUnsafeBytes {
            try DescriptorPassing.send($0, attaching: file.descriptor, over: pair.first.rawValue)
        }
        #expect(sent == 8)
        let (announcement, mapped) = try reader.value()
        #expect(announcement == "tables 7")
        #expect(mapped == Array(table))
    }

    @Test func bytesWithoutADescriptorComeAlone() throws {
        let pair = try SocketPair()
        try #require(send(pair.first.rawValue, "plain", 5, 0) == 5)
        let received = try ReceiveBuffer().receive(from: pair.second.rawValue)
        #expect(received.count == 5)
        let cameAlone = received.descriptor == nil
        #expect(cameAlone)
        #expect(received.extraDescriptors == 0)
    }

    @Test func aClosedPeerReadsAsZeroBytes() throws {
        let pair = try SocketPair()
        try #require(shutdown(pair.first.rawValue, Int32(SHUT_WR)) == 0)
        let received = try ReceiveBuffer().receive(from: pair.second.rawValue)
        #expect(received.count == 0)
    }

    /// Sends the write end of a pipe `copies` times in one message and closes the sender's
    /// own: the pipe reads as ended only once the receiver has closed every copy it got.
    @Test(arguments: [2, DescriptorPassing.receiveCapacity])
    func extraDescriptorsAreClosed(copies: Int) throws {
        let pair = try SocketPair()
        let pipe = try NonBlockingPipe()
        _ = try Array("x".utf8).withUnsafeBytes {
            try DescriptorPassing.send(
                $0, attachingNumbers: Array(repeating: pipe.writerNumber, count: copies), over: pair.first.rawValue)
        }
        pipe.closeWriter()
        var received = try ReceiveBuffer().receive(from: pair.second.rawValue)
        #expect(received.extraDescriptors == copies - 1)
        #expect(!pipe.hasEnded, "the first copy is still open, owned by the received value")
        received.descriptor.take()?.close()
        #expect(pipe.hasEnded)
    }

    @Test func truncatedControlDataIsAnErrorAndLeavesNothingOpen() throws {
        let pair = try SocketPair()
        let pipe = try NonBlockingPipe()
        let copies = DescriptorPassing.receiveCapacity + 1
        _ = try Array("x".utf8).withUnsafeBytes {
            try DescriptorPassing.send(
                $0, attachingNumbers: Array(repeating: pipe.writerNumber, count: copies), over: pair.first.rawValue)
        }
        pipe.closeWriter()
        let buffer = ReceiveBuffer()
        let error = try #require(throws: SocketError.self) {
            _ = try buffer.receive(from: pair.second.rawValue)
        }
        #expect(error.code == .truncatedControl)
        #expect(pipe.hasEnded)
    }
}

extension ReceivedBytes {
    /// The descriptor that came with the bytes, owned by the caller; a recorded issue and an
    /// error when none came.
    mutating func requireDescriptor(sourceLocation: SourceLocation = #_sourceLocation) throws -> FileDescriptor {
        switch descriptor.take() {
        case .some(let descriptor): return descriptor
        case .none:
            Issue.record("no descriptor came with the \(count) bytes", sourceLocation: sourceLocation)
            throw SocketError(code: .systemCall, message: "no descriptor received")
        }
    }
}

/// Memory for receiving, freed when the value goes away.
final class ReceiveBuffer {
    private let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)

    deinit { bytes.deallocate() }

    /// Receives into this buffer (a method, so the buffer outlives the call).
    func receive(from socket: Int32) throws(SocketError) -> ReceivedBytes {
        try DescriptorPassing.receive(into: bytes, from: socket)
    }

    /// The first `count` bytes, decoded as UTF-8.
    func text(count: Int) -> String { String(decoding: bytes.prefix(count), as: UTF8.self) }
}

/// Both ends of a connected Unix stream socket pair, each closed when the value goes away.
struct SocketPair: ~Copyable {
    let first: FileDescriptor
    let second: FileDescriptor

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        first = FileDescriptor(adopting: ends[0])
        second = FileDescriptor(adopting: ends[1])
    }
}

/// A pipe whose read end never blocks, to tell whether every write end has been closed.
final class NonBlockingPipe {
    let reader: FileDescriptor
    /// The write end's number, for sending; valid until ``closeWriter()``.
    let writerNumber: Int32
    private var writer: FileDescriptor?

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        reader = FileDescriptor(adopting: ends[0])
        writer = FileDescriptor(adopting: ends[1])
        writerNumber = ends[1]
    }

    /// Closes this process's own write end.
    func closeWriter() {
        writer.take()?.close()
    }

    /// Whether a read sees the end of the pipe (0 bytes) rather than `EAGAIN`: no write end
    /// is open anywhere.
    var hasEnded: Bool {
        var byte: UInt8 = 0
        return read(reader.rawValue, &byte, 1) == 0
    }
}
