import Glibc

/// One Linux epoll instance watching descriptors for input, each registration named by a
/// 64-bit token; closed when the value goes away.
///
/// Swift's Glibc module does not import `<sys/epoll.h>`, so the three calls are looked up
/// once with `dlsym` and called through C function pointers, and `struct epoll_event` is
/// read and written byte by byte: packed on x86-64 (12 bytes, the data at offset 4), 16 bytes
/// with the data at offset 8 elsewhere. Registrations are level-triggered: a descriptor
/// stays ready until it is read dry. `add`, `remove` and `wait` may be called from any
/// threads at once, as the kernel allows.
package final class Epoll: Sendable {
    private static let readable: UInt32 = 0x001  // EPOLLIN
    private static let eventSize = isPacked ? 12 : 16
    private static let dataOffset = isPacked ? 4 : 8
    #if arch(x86_64)
        private static let isPacked = true
    #else
        private static let isPacked = false
    #endif

    private let descriptor: Int32

    /// Creates an epoll instance (close-on-exec).
    package init() throws(SocketError) {
        guard let calls = EpollCalls.shared else {
            throw SocketError(code: .systemCall, message: "epoll is not available in this C library")
        }
        descriptor = try SystemCall.run("epoll_create1") { calls.create(O_CLOEXEC) }
    }

    deinit { close(descriptor) }

    /// Starts reporting `fd` when it has input (or a hang-up or error), as `token`.
    package func add(_ fd: Int32, token: UInt64) throws(SocketError) {
        try control(1, fd, token: token)  // EPOLL_CTL_ADD
    }

    /// Stops reporting `fd`; an event already collected by a waiting ``wait(into:timeout:)``
    /// may still name its token.
    package func remove(_ fd: Int32) {
        _ = try? control(2, fd, token: 0)  // EPOLL_CTL_DEL
    }

    /// Waits at most `timeout` milliseconds (-1: no limit) for ready descriptors and puts
    /// their tokens in `tokens` (replacing what it held); an interrupted wait returns none.
    package func wait(into tokens: inout [UInt64], capacity: Int = 64, timeout: Int32 = -1) throws(SocketError) {
        tokens.removeAll(keepingCapacity: true)
        try withUnsafeTemporaryAllocation(byteCount: capacity * Self.eventSize, alignment: 8) {
            buffer throws(SocketError) in
            let count = EpollCalls.shared!.wait(descriptor, buffer.baseAddress, Int32(capacity), timeout)
            if count < 0 {
                let code = errno
                if code == EINTR { return }
                throw SystemCall.error("epoll_wait", errno: code)
            }
            for index in 0..<Int(count) {
                tokens.append(
                    buffer.loadUnaligned(fromByteOffset: index * Self.eventSize + Self.dataOffset, as: UInt64.self))
            }
        }
    }

    private func control(_ operation: Int32, _ fd: Int32, token: UInt64) throws(SocketError) {
        var event = (UInt64(0), UInt64(0))
        try withUnsafeMutableBytes(of: &event) { bytes throws(SocketError) in
            bytes.storeBytes(of: Self.readable, toByteOffset: 0, as: UInt32.self)
            bytes.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            try SystemCall.run("epoll_ctl") {
                EpollCalls.shared!.control(descriptor, operation, fd, bytes.baseAddress)
            }
        }
    }
}

/// The C library's epoll functions, found once.
private struct EpollCalls: Sendable {
    typealias Create = @convention(c) (Int32) -> Int32
    typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    let create: Create
    let control: Control
    let wait: Wait

    static let shared: EpollCalls? = {
        guard let library = dlopen(nil, RTLD_NOW), let create = dlsym(library, "epoll_create1"),
            let control = dlsym(library, "epoll_ctl"), let wait = dlsym(library, "epoll_wait")
        else { return nil }
        return EpollCalls(
            create: unsafeBitCast(create, to: Create.self), control: unsafeBitCast(control, to: Control.self),
            wait: unsafeBitCast(wait, to: Wait.self))
    }()
}
