import Glibc
import Synchronization

/// Tells a child made by `fork()` (without `exec`) from the process whose connections it
/// inherited: the child has the parent's sockets, epoll instance and wake-up pipe, but not
/// the thread that reads them, and a read or write of them would take the parent's replies
/// or mix requests into its stream (an outside tester saw a forked child's answer reach the
/// parent). Every connection and loop notes the ``generation`` it was made in; once it
/// differs, the object is the parent's and is never used again: the child's next lookup
/// opens a connection of its own.
///
/// The inherited objects are left alone rather than closed: ending them would run
/// `epoll_ctl` on the epoll instance the parent still uses. Their descriptors stay open in
/// the child (all close-on-exec) until it exits.
enum ProcessFork {
    /// Counts the forks this process is the child of: 0 in a process started by `exec`.
    private static let forks: Atomic<UInt64> = {
        // The handler runs in the child, before `fork()` returns there; it only counts
        // (async-signal-safe: one atomic add, no lock, no allocation).
        pthread_atfork(nil, nil) { ProcessFork.noteFork() }
        return Atomic<UInt64>(0)
    }()

    /// The number of forks that made this process, for an object to note when made.
    static var generation: UInt64 { forks.load(ordering: .acquiring) }

    /// Whether an object made in `generation` was inherited from a parent across `fork()`.
    static func isInherited(_ generation: UInt64) -> Bool {
        forks.load(ordering: .acquiring) != generation
    }

    private static func noteFork() {
        forks.wrappingAdd(1, ordering: .releasing)
    }
}
