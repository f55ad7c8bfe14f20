/// What a ``ReadinessLoop``'s looking for input before it sleeps (``PollingWindow``) did
/// since the loop started: for the daemon's metrics, and to see from outside whether the
/// window opens under a busy client and closes for a quiet one.
///
/// ```swift
/// let polling = loop.pollingStatistics
/// let sleepsPerStretch = Double(polling.sleeps) / Double(polling.idleStretches)
/// ```
package struct PollingStatistics: Sendable, Hashable {
    /// Times the loop ran out of work: each one looks, sleeps, or looks and then sleeps.
    package var idleStretches: Int = 0
    /// Idle stretches that looked for input (the window was open).
    package var looks: Int = 0
    /// Looks that found input: a wake-up the loop did not need.
    package var caught: Int = 0
    /// Idle stretches that slept (in `epoll_wait` with a timeout), after looking or not.
    package var sleeps: Int = 0
    /// Looks cut short because another thread ran on the core: the window then stays
    /// closed for a while.
    package var sharedCore: Int = 0
    /// Times a look lost the core for longer than ``PollingWindow/sharedCoreGap`` with no
    /// other thread running on it (the hypervisor ran another virtual CPU, or an interrupt
    /// took the time): looking went on.
    package var lostCore: Int = 0
    /// Times input came back soon after a sleep while the window was held closed after a
    /// ``sharedCore``.
    package var held: Int = 0

    /// Creates zeroed counts.
    package init() {}
}
