import Glibc
import Synchronization

/// A lock that a child made by `fork()` never inherits held by a thread it does not have.
///
/// `Synchronization.Mutex` on Linux is a priority-inheritance futex that stores its holder's
/// thread id. A lock a parent thread (the `l10nd-replies` loop, another caller) held at the
/// moment of `fork()` stays held in the child by a thread id that does not exist there, and
/// the child's first attempt to take it trapped ("Unknown error occurred while attempting to
/// acquire a Mutex", SIGILL) — or, for a plain futex, would wait forever. A child's lookup
/// takes the locks of the objects it inherited (the localizer's state, its mapped
/// generations, its remembered answers, the shared loop, the received mappings), so every
/// one of them is this type.
///
/// It is glibc's answer for `malloc`: a `pthread_atfork` prepare handler takes every such
/// lock, so `fork()` happens only while no other thread is inside one (their values are
/// whole, not half-updated), and the parent and child handlers release them. Resetting an
/// inherited lock in the child instead would hand the child a value a parent thread was in
/// the middle of changing.
///
/// The prepare handler never waits on a lock while holding another: it tries each, and if
/// one is busy it lets all go and tries again (a thread holding one lock may be waiting for
/// another, or for the registry to make a new lock). A lock the forking thread itself holds
/// is left alone: that thread goes on in the child and releases it there.
final class ForkSafeMutex<Value>: @unchecked Sendable {
    private let core = ForkSafeLockCore()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; taking it again on the same thread is a
    /// programming error and traps, as `Mutex` does.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        core.lock()
        defer { core.unlock() }
        return try body(&value)
    }
}

/// The non-generic part of ``ForkSafeMutex``: the pthread mutex (a plain one: it has no
/// holder thread id for a child to find missing), the holder, and the place in the registry
/// the fork handlers go through.
final class ForkSafeLockCore: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// `pthread_self()` of the holder, 0 when free; only the holder sets it.
    fileprivate let holder = Atomic<UInt>(0)
    /// Whether the fork's prepare handler took this lock; only the forking thread touches it,
    /// under the registry lock.
    fileprivate var takenForFork = false

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        ForkSafeLocks.add(self)
    }

    deinit {
        ForkSafeLocks.remove(self)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() {
        let me = UInt(pthread_self())
        if holder.load(ordering: .relaxed) == me {
            fatalError("a ForkSafeMutex was taken again by the thread that holds it")
        }
        pthread_mutex_lock(mutex)
        holder.store(me, ordering: .relaxed)
    }

    func unlock() {
        holder.store(0, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }
}

/// Every live ``ForkSafeLockCore``, and the `pthread_atfork` handlers that hold them all
/// across `fork()`.
private enum ForkSafeLocks {
    nonisolated(unsafe) private static let registryLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        pthread_atfork({ ForkSafeLocks.prepare() }, { ForkSafeLocks.release() }, { ForkSafeLocks.release() })
        return lock
    }()
    /// Guarded by `registryLock`. Unretained: a core removes itself in `deinit`.
    nonisolated(unsafe) private static var cores: [ObjectIdentifier: Unmanaged<ForkSafeLockCore>] = [:]

    static func add(_ core: ForkSafeLockCore) {
        pthread_mutex_lock(registryLock)
        cores[ObjectIdentifier(core)] = .passUnretained(core)
        pthread_mutex_unlock(registryLock)
    }

    static func remove(_ core: ForkSafeLockCore) {
        pthread_mutex_lock(registryLock)
        cores[ObjectIdentifier(core)] = nil
        pthread_mutex_unlock(registryLock)
    }

    /// Takes the registry and every lock no other thread holds; if one is held, lets all go,
    /// yields, and starts again, so it never waits holding a lock a waiting thread needs.
    private static func prepare() {
        let me = UInt(pthread_self())
        while true {
            pthread_mutex_lock(registryLock)
            var all = true
            for entry in cores.values {
                let core = entry.takeUnretainedValue()
                if core.holder.load(ordering: .relaxed) == me { continue }
                guard pthread_mutex_trylock(core.mutex) == 0 else {
                    all = false
                    break
                }
                core.takenForFork = true
            }
            if all { return }
            release()
            sched_yield()
        }
    }

    /// Lets go of what `prepare` took: in the parent after `fork()`, and in the child, where
    /// the one thread is the one that took them.
    private static func release() {
        for entry in cores.values {
            let core = entry.takeUnretainedValue()
            if core.takenForFork {
                core.takenForFork = false
                pthread_mutex_unlock(core.mutex)
            }
        }
        pthread_mutex_unlock(registryLock)
    }
}
