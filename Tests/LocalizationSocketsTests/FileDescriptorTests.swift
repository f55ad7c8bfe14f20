import Glibc
import LocalizationSockets
import Testing

/// `FileDescriptor` closes once, when asked or when dropped, and not after `take()`.
///
/// Each test owns one end of a socket pair and watches from the other end: a peer reads
/// end-of-file only once the last descriptor of its partner is closed, which (unlike asking
/// about a descriptor number) cannot be fooled by another test reusing the number.
@Suite struct FileDescriptorTests {
    /// A connected pair: the end under test, owned, and the raw peer that observes it.
    private func socketPair() throws -> (owned: Int32, peer: Int32) {
        var ends: [Int32] = [-1, -1]
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        try #require(made == 0)
        return (ends[0], ends[1])
    }

    /// Whether the peer sees its partner closed (end-of-file) rather than merely quiet.
    private func partnerClosed(_ peer: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// Whether the peer sees its partner closed within 5 s. Not at once: a test running
    /// beside this one may be starting a process, whose fork holds a copy of every
    /// descriptor until its exec closes them (they are close-on-exec), and end-of-file comes
    /// only when the last copy goes (a CI run saw it late).
    private func partnerClosedSoon(_ peer: Int32) -> Bool {
        var waiting = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        _ = poll(&waiting, 1, 5_000)
        return partnerClosed(peer)
    }

    @Test func closeClosesTheDescriptor() throws {
        let (owned, peer) = try socketPair()
        defer { Glibc.close(peer) }
        let descriptor = FileDescriptor(adopting: owned)
        #expect(!partnerClosed(peer))
        descriptor.close()
        #expect(partnerClosedSoon(peer))
    }

    @Test func droppingTheValueClosesTheDescriptor() throws {
        let (owned, peer) = try socketPair()
        defer { Glibc.close(peer) }
        do {
            let descriptor = FileDescriptor(adopting: owned)
            #expect(descriptor.rawValue == owned)
        }
        #expect(partnerClosedSoon(peer))
    }

    @Test func takeHandsOverWithoutClosing() throws {
        let (owned, peer) = try socketPair()
        defer { Glibc.close(peer) }
        let descriptor = FileDescriptor(adopting: owned)
        let taken = descriptor.take()
        #expect(taken == owned)
        #expect(!partnerClosed(peer))
        Glibc.close(taken)
        #expect(partnerClosedSoon(peer))
    }

    @Test func systemCallFailureThrowsAndOwnsNothing() {
        #expect(throws: SocketError.self) {
            _ = try FileDescriptor(systemCall: "socket") { socket(-1, 0, 0) }
        }
    }

    @Test func systemCallResultIsOwned() throws {
        let descriptor = try FileDescriptor(systemCall: "socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        #expect(fcntl(descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }
}
