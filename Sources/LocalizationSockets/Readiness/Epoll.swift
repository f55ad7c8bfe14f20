import CEpoll
import Glibc

/// One Linux epoll instance watching descriptors for input (and, when asked, for room to
/// write), each registration named by a 64-bit token; closed when the value goes away.
///
/// Registrations are level-triggered: a descriptor stays ready until it is read dry. `add`,
/// `remove` and `wait` may be called from any threads at once, as the kernel allows.
package final class Epoll: Sendable {
    private let instance: FileDescriptor

    /// Creates an epoll instance (close-on-exec).
    package init() throws(SocketError) {
        instance = try FileDescriptor(systemCall: "epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    /// Starts reporting `fd` when it has input (or a hang-up or error), as `token`.
    package func add(_ fd: Int32, token: UInt64) throws(SocketError) {
        try add(fd, token: token, input: true, output: false)
    }

    /// Starts reporting `fd` as `token` when it has input (with `input`), room to write (with
    /// `output`), a hang-up or an error.
    package func add(_ fd: Int32, token: UInt64, input: Bool, output: Bool) throws(SocketError) {
        var event = Self.event(token: token, input: input, output: output)
        try SystemCall.run("epoll_ctl(ADD)") { epoll_ctl(instance.rawValue, EPOLL_CTL_ADD, fd, &event) }
    }

    /// Changes what `fd`, added before, is reported for.
    package func modify(_ fd: Int32, token: UInt64, input: Bool, output: Bool) throws(SocketError) {
        var event = Self.event(token: token, input: input, output: output)
        try SystemCall.run("epoll_ctl(MOD)") { epoll_ctl(instance.rawValue, EPOLL_CTL_MOD, fd, &event) }
    }

    private static func event(token: UInt64, input: Bool, output: Bool) -> epoll_event {
        var event = epoll_event()
        event.events = (input ? EPOLLIN.rawValue : 0) | (output ? EPOLLOUT.rawValue : 0)
        event.data.u64 = token
        return event
    }

    /// Stops reporting `fd`; an event already collected by a waiting ``wait(into:capacity:timeout:)``
    /// may still name its token.
    package func remove(_ fd: Int32) {
        var event = epoll_event()  // ignored, but kernels before 2.6.9 wanted one
        _ = epoll_ctl(instance.rawValue, EPOLL_CTL_DEL, fd, &event)
    }

    /// Waits at most `timeout` milliseconds (-1: no limit) for ready descriptors and puts
    /// their tokens in `tokens` (replacing what it held); an interrupted wait returns none.
    package func wait(into tokens: inout [UInt64], capacity: Int = 64, timeout: Int32 = -1) throws(SocketError) {
        tokens.removeAll(keepingCapacity: true)
        try withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: capacity) { events throws(SocketError) in
            let count = epoll_wait(instance.rawValue, events.baseAddress, Int32(capacity), timeout)
            if count < 0 {
                let code = errno
                if code == EINTR { return }
                throw SystemCall.error("epoll_wait", errno: code)
            }
            for event in events.prefix(Int(count)) { tokens.append(event.data.u64) }
        }
    }
}
