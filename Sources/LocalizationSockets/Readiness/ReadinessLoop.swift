import Foundation
import Glibc
import Synchronization

/// A thread that waits for input on many descriptors at once (one ``Epoll``) and hands the
/// tokens of each wake-up to a handler together.
///
/// One wake-up serves whatever became ready meanwhile, and the handler runs on the thread
/// that woke: a Dispatch read source per descriptor costs three thread switches per event
/// on Linux (libdispatch's manager thread wakes, disarms the descriptor, wakes a worker to
/// run the handler, and is woken again to re-arm it), a blocking reader per descriptor one
/// thread each.
///
/// A loop started with ``start(name:timed:)`` also keeps time: its handler says when it
/// wants to run next even if nothing is ready, and ``wake()`` runs it at once. Work from
/// other threads reaches the loop's thread through ``post(_:)``: one owner for whatever the
/// handler keeps, no lock around it.
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
    /// Set by ``stop()``: a byte in the pipe then means "end", not "run the handler".
    private let stopping = Atomic<Bool>(false)
    /// What the looking before sleeping did (``pollingStatistics``).
    private let polling = PollingCounters()
    /// Work other threads handed to the loop's thread (``post(_:)``).
    private let mailbox = Mailbox()
    /// The loop's thread (`pthread_self`), 0 until it runs.
    private let thread = Atomic<UInt>(0)

    /// Work waiting for the loop's thread. A `pthread` mutex (through `NSLock`), not a
    /// `Synchronization.Mutex`: ThreadSanitizer sees the hand-over a `pthread` mutex makes,
    /// so the work's captured state is not reported as raced (scripts/tsan-suppressions.txt).
    private final class Mailbox: @unchecked Sendable {
        let lock = NSLock()
        var work: [@Sendable () -> Void] = []
    }

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
    ///
    /// With `polling` above 0 the thread, out of work, keeps looking for input up to that many
    /// nanoseconds before it sleeps, as long as input has been coming back that soon
    /// (``PollingWindow``): a server that answers a busy client pays in CPU time for
    /// wake-ups that client no longer waits for.
    package func start(name: String, polling: UInt64 = 0, _ handler: @escaping @Sendable ([UInt64]) -> Void) {
        start(name: name, polling: polling) { tokens, _ in
            if !tokens.isEmpty { handler(tokens) }
            return nil
        }
    }

    /// Starts the thread, which calls `handler` after every wake-up — with the tokens that
    /// have input, and whether the time came or ``wake()`` was called — and then waits at
    /// most until the uptime (nanoseconds) `handler` returned, or without limit for `nil`.
    /// The first call, with no tokens and `true`, comes at once. Call once. `polling`: as for
    /// ``start(name:polling:_:)``.
    package func start(
        name: String, polling: UInt64 = 0, timed handler: @escaping @Sendable ([UInt64], Bool) -> UInt64?
    ) {
        let thread = Thread { [self] in
            // Named from inside: Foundation names the system thread (what `top -H` and
            // `perf` show) only for the current thread.
            Thread.current.name = name
            run(handler, window: polling > 0 ? PollingWindow(maximum: polling) : nil)
        }
        thread.start()
    }

    /// What the thread's looking for input before it sleeps did so far (all zero for a loop
    /// started without `polling`); from any thread.
    package var pollingStatistics: PollingStatistics {
        polling.snapshot
    }

    /// Makes the thread call its handler soon, even with nothing ready; from any thread.
    package func wake() {
        var byte: UInt8 = 0
        _ = write(wakeWriter.rawValue, &byte, 1)
    }

    /// Runs `work` on the loop's thread, before its handler's next call (at once if the loop
    /// sleeps); from any thread. Work posted after ``stop()`` never runs.
    package func post(_ work: @escaping @Sendable () -> Void) {
        mailbox.lock.lock()
        mailbox.work.append(work)
        mailbox.lock.unlock()
        wake()
    }

    /// Whether the caller runs on the loop's thread.
    package var isCurrentThread: Bool {
        thread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Reports `descriptor` as `token` whenever it has input, a hang-up or an error, until
    /// ``unwatch(_:)``; level-triggered, so input left unread is reported again.
    package func watch(_ descriptor: Int32, token: UInt64) throws(SocketError) {
        try epoll.add(descriptor, token: token)
    }

    /// Reports `descriptor` as `token` when it has input (with `input`), room to write (with
    /// `output`), a hang-up or an error; `added`: whether it is watched already (its interest
    /// is then changed in place). Level-triggered: room to write is reported until the
    /// descriptor is watched without `output`, so ask for it only while output waits.
    package func watch(_ descriptor: Int32, token: UInt64, input: Bool, output: Bool, added: Bool) throws(SocketError) {
        if added {
            try epoll.modify(descriptor, token: token, input: input, output: output)
        } else {
            try epoll.add(descriptor, token: token, input: input, output: output)
        }
    }

    /// Stops reporting `descriptor`. A wake-up already under way may still name its token:
    /// handlers look tokens up and ignore the ones they no longer know.
    package func unwatch(_ descriptor: Int32) {
        epoll.remove(descriptor)
    }

    /// Ends the thread once the handler call in progress, if any, returns. Idempotent.
    package func stop() {
        stopping.store(true, ordering: .releasing)
        wake()
    }

    private func run(_ handler: @Sendable ([UInt64], Bool) -> UInt64?, window: PollingWindow?) {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        var tokens: [UInt64] = []
        var wakeAt = handler([], true)
        var window = window
        while true {
            // epoll_wait fails only for a bad descriptor or buffer, which this loop owns.
            if var polling = window {
                guard (try? waitPolling(into: &tokens, until: wakeAt, window: &polling)) != nil else { return }
                window = polling
            } else {
                guard (try? epoll.wait(into: &tokens, timeout: Self.milliseconds(until: wakeAt))) != nil else { return }
            }
            var woken = tokens.isEmpty
            if let index = tokens.firstIndex(of: Self.stopToken) {
                if stopping.load(ordering: .acquiring) { return }
                tokens.remove(at: index)
                drainWakeUps()
                runPostedWork()
                woken = true
            }
            if !woken, let wakeAt, DispatchTime.now().uptimeNanoseconds >= wakeAt { woken = true }
            wakeAt = handler(tokens, woken)
        }
    }

    /// Waits as `epoll.wait` does, but first looks without sleeping for as long as `window`
    /// says (not past `deadline`), letting the other threads of this core run between looks —
    /// and no longer once one of them did —, then adapts `window` to how long the input took.
    private func waitPolling(
        into tokens: inout [UInt64], until deadline: UInt64?, window: inout PollingWindow
    ) throws(SocketError) {
        let idleSince = DispatchTime.now().uptimeNanoseconds
        polling.idleStretches.countBySoleWriter()
        if window.current > 0 {
            polling.looks.countBySoleWriter()
            if try look(into: &tokens, from: idleSince, until: deadline, window: &window) {
                polling.caught.countBySoleWriter()
                window.noteCaught()
                return
            }
        }
        polling.sleeps.countBySoleWriter()
        try epoll.wait(into: &tokens, timeout: Self.milliseconds(until: deadline))
        if tokens.isEmpty || tokens == [Self.stopToken] {
            window.noteNoInput()
        } else {
            let now = DispatchTime.now().uptimeNanoseconds
            let idle = now - idleSince
            if idle > window.current, idle <= PollingWindow.soon, window.isHeldClosed(at: now) {
                polling.held.countBySoleWriter()
            }
            window.noteInput(afterIdle: idle, at: now)
        }
    }

    /// Looks for input without sleeping from the uptime `idleSince` for as long as `window`
    /// says (not past `deadline`), yielding the core between looks; true when input came.
    /// Closes `window` for a while if another thread ran during a yield and sent nothing.
    private func look(
        into tokens: inout [UInt64], from idleSince: UInt64, until deadline: UInt64?, window: inout PollingWindow
    ) throws(SocketError) -> Bool {
        let lookUntil = min(idleSince + window.current, deadline ?? .max)
        // Switches away from this thread while it was runnable: each one ran another thread.
        let switchesBefore = Self.involuntarySwitches()
        var now = idleSince
        repeat {
            try epoll.wait(into: &tokens, timeout: 0)
            if !tokens.isEmpty { return true }
            // A client on this very core needs it to send what this loop waits for.
            let yielded = now
            sched_yield()
            now = DispatchTime.now().uptimeNanoseconds
            // A long yield is another thread's only if the core switched threads: a virtual
            // CPU also stops for that long when the hypervisor runs another, or an interrupt
            // takes the time, and neither is a reason to sleep.
            if now - yielded > PollingWindow.sharedCoreGap {
                guard Self.involuntarySwitches() != switchesBefore else {
                    polling.lostCore.countBySoleWriter()
                    continue
                }
                // Another thread ran meanwhile and sent nothing: the core is wanted, and
                // looking would take it from whoever needs it (the client, on a busy host).
                try epoll.wait(into: &tokens, timeout: 0)
                if !tokens.isEmpty { return true }
                polling.sharedCore.countBySoleWriter()
                window.noteSharedCore(at: now)
                return false
            }
        } while now < lookUntil
        return false
    }

    /// How often the calling thread was switched away from while runnable (by a yield to
    /// another thread, or preempted) since it started.
    private static func involuntarySwitches() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1), which Glibc declares only for _GNU_SOURCE.
        _ = getrusage(__rusage_who_t(1), &usage)
        return usage.ru_nivcsw
    }

    /// Runs the work posted so far, in the order it was posted.
    private func runPostedWork() {
        mailbox.lock.lock()
        let work = mailbox.work
        mailbox.work.removeAll(keepingCapacity: true)
        mailbox.lock.unlock()
        for item in work { item() }
    }

    /// Empties the pipe, so the wake-ups written so far are reported once.
    private func drainWakeUps() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(wakeReader.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// The wait until the uptime `deadline` for `epoll_wait`, rounded up so the thread never
    /// wakes before it; -1 (no limit) for `nil`.
    private static func milliseconds(until deadline: UInt64?) -> Int32 {
        guard let deadline else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }
}
