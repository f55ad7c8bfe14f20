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
/// - input after the window but within ``maximum``: looking longer would have caught it, so
///   the window grows (to ``start``, then doubling, up to ``maximum``);
/// - input later than ``maximum`` (or none, a timer's wake-up): the window halves, and
///   below ``start`` it closes;
/// - another thread ran on the core while the loop looked (``sharedCoreGap``): the window
///   closes, since looking then takes the core from others — on a busy host, maybe from
///   the very client it waits for.
///
/// ```swift
/// var window = PollingWindow(maximum: 50_000)
/// window.noteInput(afterIdle: 30_000)  // window.current == window.start
/// ```
package struct PollingWindow: Sendable, Equatable {
    /// The longest window, in nanoseconds; 0 never looks.
    package let maximum: UInt64
    /// The first window opened, in nanoseconds.
    package let start: UInt64
    /// A look that took longer than this (nanoseconds) let another thread run: a bare
    /// `sched_yield` returns within a few microseconds.
    package static let sharedCoreGap: UInt64 = 10_000

    /// How long to look before sleeping now, in nanoseconds.
    package private(set) var current: UInt64 = 0

    /// A window that opens to `start` (a quarter of `maximum` unless given) and grows to at
    /// most `maximum` nanoseconds; closed until input comes back soon enough.
    package init(maximum: UInt64, start: UInt64? = nil) {
        self.maximum = maximum
        self.start = min(start ?? maximum / 4, maximum)
    }

    /// Adapts to input that came `idle` nanoseconds after the loop ran out of work (the
    /// time looked plus the time slept).
    package mutating func noteInput(afterIdle idle: UInt64) {
        if idle <= current { return }
        if idle <= maximum {
            current = min(maximum, max(start, current * 2))
        } else {
            narrow()
        }
    }

    /// Adapts to an idle stretch that ended without input (a timer's or a ``ReadinessLoop/wake()``
    /// call's wake-up): the looking, if any, was wasted.
    package mutating func noteNoInput() {
        narrow()
    }

    /// Adapts to a look during which another thread ran on the core and sent nothing.
    package mutating func noteSharedCore() {
        current = 0
    }

    private mutating func narrow() {
        current /= 2
        if current < start { current = 0 }
    }
}
