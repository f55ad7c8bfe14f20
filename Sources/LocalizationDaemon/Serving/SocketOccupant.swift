import Foundation
import LocalizationSockets
import LocalizationWire

#if canImport(Glibc)
    import Glibc
#endif

/// Who listens on a socket path that is not ours: another l10nd, or a program that is not
/// l10nd. Asked, not assumed: a `hello` is sent, and only a reply that says `"daemon": "l10nd"`
/// within ``timeout`` makes it "another l10nd"; the kernel says which process holds it
/// (`SO_PEERCRED`: its pid, and from that its name and owner).
enum SocketOccupant {
    /// How long the occupant has to answer `hello`: it may be a busy l10nd, but a program
    /// that never answers must not hold the caller (a timer, or start-up) for long.
    static let timeout: TimeInterval = 1

    /// One sentence for the log and `status`: "another l10nd (pid 41, user l10nd) is
    /// listening on PATH" or "a program that is not l10nd (pid 77 `nc`, user alice) is
    /// listening on PATH".
    static func describe(_ path: String) -> String {
        let (isL10nd, peer) = ask(path)
        let who = peer.map(describe) ?? "pid unknown"
        return isL10nd
            ? "another l10nd (\(who)) is listening on \(path)"
            : "a program that is not l10nd (\(who)) is listening on \(path); it did not answer hello as l10nd"
    }

    /// Connects, sends `hello` as a JSON line, reads one line back within ``timeout``.
    private static func ask(_ path: String) -> (isL10nd: Bool, peer: PeerInfo?) {
        guard
            let socket = try? FileDescriptor(
                systemCall: "socket",
                {
                    Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                }),
            let address = UnixSocketAddress(path)
        else { return (false, nil) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socket.rawValue, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket.rawValue, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ Glibc.connect(socket.rawValue, $0, $1) }) == 0 else { return (false, nil) }
        let peer = PeerInfo.of(socket: socket)
        let request = Array("{\"op\":\"hello\"}\n".utf8)
        guard send(socket.rawValue, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            return (false, peer)
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        // One line, at most 64 KiB, before the deadline: an answer l10nd gives in microseconds.
        while !reply.contains(UInt8(ascii: "\n")), reply.count < 65_536, Date() < deadline {
            let count = read(socket.rawValue, &buffer, buffer.count)
            guard count > 0 else { break }
            reply += buffer.prefix(count)
        }
        let line = reply.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let answer = try? WireValue(jsonText: String(decoding: line, as: UTF8.self))
        return (answer?["daemon"] == .string("l10nd"), peer)
    }

    /// "pid 77 `nc`, user alice": what `/proc` and the user database say of `peer`.
    private static func describe(_ peer: PeerInfo) -> String {
        let name = (try? String(contentsOfFile: "/proc/\(peer.pid)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let user = getpwuid(peer.uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(peer.uid)"
        return "pid \(peer.pid)" + (name.map { " `\($0)`" } ?? "") + ", user \(user)"
    }
}
