import Foundation
import Glibc
import LocalizationSockets

/// Opens Unix sockets for the test clients: one place for the address and error handling.
enum TestSocket {
    /// A stream socket connected to `path`, with `timeout` on its reads and sends.
    static func connected(to path: String, timeout: TimeInterval) throws -> Int32 {
        let descriptor = try open(path, type: SOCK_STREAM) { descriptor, address, length in
            connect(descriptor, address, length)
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// A datagram socket bound to `path`.
    static func boundDatagram(at path: String) throws -> Int32 {
        try open(path, type: SOCK_DGRAM) { descriptor, address, length in bind(descriptor, address, length) }
    }

    private static func open(
        _ path: String, type: __socket_type, _ attach: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws -> Int32 {
        guard let address = UnixSocketAddress(path) else {
            throw JSONLineClient.Failure(description: "not a usable socket path: \(path)")
        }
        let descriptor = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw JSONLineClient.Failure(description: "socket: errno \(errno)") }
        guard address.withSockaddr({ attach(descriptor, $0, $1) }) == 0 else {
            let code = errno
            close(descriptor)
            throw JSONLineClient.Failure(description: "\(path): \(String(cString: strerror(code)))")
        }
        return descriptor
    }
}
