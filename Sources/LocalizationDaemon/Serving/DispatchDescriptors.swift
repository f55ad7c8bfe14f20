import Dispatch

/// Makes libdispatch create, now, the descriptors it would otherwise create lazily.
///
/// libdispatch opens some descriptors the first time they are needed and cannot cope when
/// that fails: the main queue's `eventfd` is created when `dispatchMain()` retires the main
/// thread, and a failure there traps (SIGILL in `_dispatch_runloop_queue_handle_init`); the
/// `timerfd` of the monotonic clock is created when the first timer is armed, and a failure
/// there leaves that timer unarmed. A daemon that starts with a backlog of clients can run
/// out of descriptors (under `LimitNOFILE=`) before either happens, so both are created
/// before any client is accepted.
package enum DispatchDescriptors {
    /// Creates the main queue's wake-up descriptor and the monotonic clock's timer
    /// descriptor. Call before `dispatchMain()` and before serving; calling again is harmless.
    package static func prepare() {
        // An item on the main queue before dispatchMain() runs creates its eventfd (the same
        // one-time initialisation dispatchMain() would do later).
        DispatchQueue.main.async {}
        // A timer that fires proves the clock's timerfd exists; libdispatch keeps it open.
        // Bounded: with no descriptor to spare the timer never fires, and start-up goes on to
        // fail with a clear message where the daemon itself needs one.
        let fired = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { fired.signal() }
        _ = fired.wait(timeout: .now() + .seconds(1))
    }
}
