import Foundation
import Glibc

/// A thread that waits for input on many descriptors at once (one ``Epoll``) and hands the
/// tokens of each wake-up to a handler together.
///
/// One wake-up serves whatever became ready meanwhile, and the handler runs on the thread
/// that woke: a Dispatch read source per descriptor costs three thread switches per event
/// on Linux (libdispatch's manager thread wakes, disarms the descriptor, wakes a worker to
/// run the handler, and is woken again to re-arm it), a blocking reader per descriptor one
/// thread each.
///
/// ```swift
/// let loop = try ReadinessLoop()
/// loop.start(name: "l10nd-sockets") { tokens in tokens.forEach(readAvailable) }
/// try loop.watch(descriptor, token: 7)
/// ```
package final class ReadinessLoop: Sendable {
    /// The token of the wake-up pipe; never a caller's.
    private static let stopToken = UInt64.max

    private let epoll: Epoll
    private let wakeReader: FileDescriptor
    private let wakeWriter: FileDescriptor

    /// Creates the epoll instance and the pipe that ``stop()`` writes to (three descriptors).
    package init() throws(SocketError) {
        epoll = try Epoll()
        var ends: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&ends) }
        let reader = FileDescriptor(adopting: ends[0])
        let writer = FileDescriptor(adopting: ends[1])
        for end in [reader.rawValue, writer.rawValue] {
            try SystemCall.run("fcntl(F_SETFD)") { fcntl(end, F_SETFD, FD_CLOEXEC) }
            try SystemCall.run("fcntl(F_SETFL)") { fcntl(end, F_SETFL, O_NONBLOCK) }
        }
        try epoll.add(reader.rawValue, token: Self.stopToken)
        wakeReader = reader
        wakeWriter = writer
    }

    /// Starts the thread, which calls `handler` with the tokens of each wake-up (each token
    /// once, in no particular order) until ``stop()``. Call once.
    package func start(name: String, _ handler: @escaping @Sendable ([UInt64]) -> Void) {
        let thread = Thread { [self] in
            // Named from inside: Foundation names the system thread (what `top -H` and
            // `perf` show) only for the current thread.
            Thread.current.name = name
            run(handler)
        }
        thread.start()
    }

    /// Reports `descriptor` as `token` whenever it has input, a hang-up or an error, until
    /// ``unwatch(_:)``; level-triggered, so input left unread is reported again.
    package func watch(_ descriptor: Int32, token: UInt64) throws(SocketError) {
        try epoll.add(descriptor, token: token)
    }

    /// Stops reporting `descriptor`. A wake-up already under way may still name its token:
    /// handlers look tokens up and ignore the ones they no longer know.
    package func unwatch(_ descriptor: Int32) {
        epoll.remove(descriptor)
    }

    /// Ends the thread once the handler call in progress, if any, returns. Idempotent.
    package func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWriter.rawValue, &byte, 1)
    }

    private func run(_ handler: @Sendable ([UInt64]) -> Void) {
        var tokens: [UInt64] = []
        while true {
            // epoll_wait fails only for a bad descriptor or buffer, which this loop owns.
            guard (try? epoll.wait(into: &tokens)) != nil, !tokens.contains(Self.stopToken) else { return }
            if !tokens.isEmpty { handler(tokens) }
        }
    }
}
