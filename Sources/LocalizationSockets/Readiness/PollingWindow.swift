/// How long a ``ReadinessLoop`` keeps looking for input before it sleeps, adapted to how
/// soon input has been coming back (the rule of Linux's `haltpoll` idle governor).
///
/// Sleeping costs the next request a wake-up: on a virtual machine whose idle cores halt,
/// the waker's inter-processor interrupt and the halted core's return take tens of
/// microseconds, more than a pipelined burst takes to answer. Looking a little longer
/// catches the next burst of a client that keeps the loop busy without that wake-up, while
/// a loop whose input comes rarely stops looking at all:
///
/// - input within the window: the window stays;
/// - input after the window but within a millisecond (slept through, so including the
///   loop's own wake-up): a busy client, so the window grows (to ``start``, then doubling, up
///   to ``maximum``);
/// - input later than that (or none, a timer's wake-up): the window halves, and below
///   ``start`` it closes;
/// - another thread ran on the core while the loop looked (a yield that took longer than
///   ``sharedCoreGap`` and switched threads): the window closes and stays closed for a while
///   (10 ms, doubling up to a second while it keeps happening with no input caught by
///   looking in between), since on a busy host a yielding loop waits behind the others for
///   the core, while a sleeping one is woken ahead of them. A long yield with no switch is
///   the hypervisor's or an interrupt's, not a thread of this system's: it closes nothing.
///
/// ```swift
/// var window = PollingWindow(maximum: 50_000)
/// window.noteInput(afterIdle: 30_000, at: now)  // window.current == window.start
/// ```
package struct PollingWindow: Sendable, Equatable {
    /// The longest window, in nanoseconds; 0 never looks.
    package let maximum: UInt64
    /// The first window opened, in nanoseconds.
    package let start: UInt64
    /// A look that took longer than this (nanoseconds) may have let another thread run: a
    /// bare `sched_yield` returns within a few microseconds. Only a switch of threads proves
    /// it (a virtual CPU also loses its core to the hypervisor for that long, often).
    package static let sharedCoreGap: UInt64 = 10_000

    /// Input that came back within this (nanoseconds) after the loop slept opens or widens
    /// the window; later input narrows it.
    static let soon: UInt64 = 1_000_000

    /// The shortest and longest time the window stays closed after another thread ran.
    static let shortestHold: UInt64 = 10_000_000
    static let longestHold: UInt64 = 1_000_000_000

    /// How long to look before sleeping now, in nanoseconds.
    package private(set) var current: UInt64 = 0
    /// Until when (uptime nanoseconds) the window stays closed, and for how long it will the
    /// next time another thread runs during a look.
    private var closedUntil: UInt64 = 0
    private var hold = Self.shortestHold

    /// A window that opens to `start` (a quarter of `maximum` unless given) and grows to at
    /// most `maximum` nanoseconds; closed until input comes back soon enough.
    package init(maximum: UInt64, start: UInt64? = nil) {
        self.maximum = maximum
        self.start = min(start ?? maximum / 4, maximum)
    }

    /// Adapts to input that came `idle` nanoseconds after the loop ran out of work (the
    /// time looked plus the time slept), at the uptime `now`.
    package mutating func noteInput(afterIdle idle: UInt64, at now: UInt64) {
        if idle <= current {
            // Within the window, though slept through (the look ended early): it stays.
            return
        }
        // Not `maximum`: an idle stretch slept through includes the loop's own wake-up,
        // which is what looking saves, so one that came back within a millisecond is a
        // busy client's.
        if idle <= Self.soon {
            guard now >= closedUntil else { return }
            current = min(maximum, max(start, current * 2))
        } else {
            narrow()
        }
    }

    /// Adapts to input found by looking: the core was free, so the next hold starts short
    /// again.
    package mutating func noteCaught() {
        hold = Self.shortestHold
    }

    /// Whether input that comes back soon is ignored at the uptime `now`: the window is held
    /// closed after another thread ran on the core.
    package func isHeldClosed(at now: UInt64) -> Bool {
        now < closedUntil
    }

    /// Adapts to an idle stretch that ended without input (a timer's or a ``ReadinessLoop/wake()``
    /// call's wake-up): the looking, if any, was wasted.
    package mutating func noteNoInput() {
        narrow()
    }

    /// Adapts to a look during which another thread ran on the core and sent nothing, at
    /// the uptime `now`.
    package mutating func noteSharedCore(at now: UInt64) {
        current = 0
        closedUntil = now + hold
        hold = min(Self.longestHold, hold * 2)
    }

    private mutating func narrow() {
        current /= 2
        if current < start { current = 0 }
    }
}
