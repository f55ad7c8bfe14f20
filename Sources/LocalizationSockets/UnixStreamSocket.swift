// CSharedMemory too: its header includes <sys/socket.h>, and clang may then credit
// `MSG_NOSIGNAL` to that module rather than to Glibc (the build failed on it at random).
import CSharedMemory
import Glibc

/// A connected Unix stream socket for a client: blocking, with a time limit on every read
/// and write, closed exactly once when the value goes away. `Sendable`: one thread may
/// send while another receives, as the kernel allows on a stream socket.
package final class UnixStreamSocket: Sendable {
    private let socket: FileDescriptor

    /// The connected descriptor, for a caller that waits for input itself (with an
    /// ``Epoll``); it stays owned, and is closed, by this value.
    package var descriptor: Int32 { socket.rawValue }

    /// Connects to `path`, with `timeout` seconds for each later send or receive.
    package init(path: String, timeout: Double) throws(SocketError) {
        guard let address = UnixSocketAddress(path) else {
            throw SocketError(
                code: .pathTooLong, message: "'\(path)' is not a usable socket path (absolute, at most 107 bytes)")
        }
        let socket = try FileDescriptor(systemCall: "socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        let descriptor = socket.rawValue
        let connected = address.withSockaddr { pointer, length in
            Result { () throws(SocketError) in
                try SystemCall.run("connect(\(path))") { connect(descriptor, pointer, length) }
            }
        }
        if case .failure(let error) = connected {
            guard error.code == .systemCall else { throw error }
            switch error.errno {
            case ENOENT, ECONNREFUSED:
                throw SocketError(code: .systemCall, errno: error.errno, message: "no l10nd is listening on \(path)")
            case EACCES, EPERM:
                throw SocketError(
                    code: .systemCall, errno: error.errno, message: ClientSocketPath.permissionDenied(path))
            default: throw error
            }
        }
        self.socket = socket
        // A time limit of infinity, NaN or beyond a year means none (0 to the kernel), rather
        // than a trap converting it to an integer.
        let seconds = timeout.isFinite && timeout > 0 && timeout < 31_536_000 ? timeout : 0
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte, or throws (a timeout is `EAGAIN`).
    package func send(_ bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let written = try SystemCall.run("send") {
                bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            }
            offset += written
        }
    }

    /// Sends what the socket takes now of `bytes`, without waiting; returns how many it took
    /// (0 when its buffer is full), or throws for a broken connection. For a thread that
    /// must never block in `send` (an event loop, which waits for room with `EPOLLOUT`).
    package func sendAvailable(_ bytes: ArraySlice<UInt8>) throws(SocketError) -> Int {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            do throws(SocketError) {
                offset += try SystemCall.run("send") {
                    bytes[offset...].withUnsafeBytes {
                        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                    }
                }
            } catch {
                guard error.wouldBlock else { throw error }
                break
            }
        }
        return offset - bytes.startIndex
    }

    /// Receives what is there, up to `maximum` bytes, waiting at most the time limit;
    /// empty when the peer closed the connection.
    package func receive(maximum: Int = 65536) throws(SocketError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = try SystemCall.run("recv") {
            buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return Array(buffer[..<count])
    }
}
