import Dispatch
import LocalizationCore
import Synchronization

/// The compiled tables of the generation served now (``CompiledGeneration``): compiled
/// eagerly, in the background, at load and right after each reload
/// (``compileNow(current:on:then:)``), so that `map` finds them ready without ever waiting
/// for a compile — and replaced, the old one dropped, by the first compile after a reload. Clients keep their own
/// descriptors and mappings, and lookups their reference, so dropping it ends nothing they use.
///
/// Only the generation served is worth compiling: a compile gives up between tables and
/// languages once a reload has replaced its generation, and a background compile first waits
/// ``settleDelay`` and is skipped if the generation moved meanwhile (a burst of saves, each
/// followed by a lookup, compiles the last generation only).
final class SharedTablesCache: Sendable {
    /// How long a generation must stay served before a background compile of it starts.
    static let settleDelay: DispatchTimeInterval = .milliseconds(250)

    private let current = Mutex<CompiledGeneration?>(nil)
    /// The newest generation a background compile was asked for: each is asked for once.
    private let requested = Atomic<UInt64>(0)
    /// The newest generation an eager compile was queued for: each is queued once.
    private let queued = Atomic<UInt64>(0)
    /// The last generation whose compile failed (not abandoned), and why.
    private let failure = Mutex<(generation: UInt64, message: String)?>(nil)
    /// Where compiles started are counted (`compiles`).
    private let counters: DaemonCounters

    /// Creates an empty cache counting its compiles in `counters`.
    init(counters: DaemonCounters) {
        self.counters = counters
    }

    /// The compiled tables of the newest generation `snapshot` gives: the ones kept, else new
    /// ones, which replace them. A compile a reload overtakes is abandoned and the newer
    /// snapshot compiled instead. Called on one queue at a time (the service's
    /// `l10nd.compile`), so a generation is compiled once.
    func compiled(for snapshot: () -> ResourceSnapshot) throws -> CompiledGeneration {
        while true {
            let served = snapshot()
            do {
                return try compiled(served) { snapshot().generation == served.generation }
            } catch CompiledTablesError.abandoned {
                continue
            }
        }
    }

    /// The compiled tables of `snapshot`'s generation, kept or compiled while `proceeding`.
    private func compiled(_ snapshot: ResourceSnapshot, proceeding: () -> Bool) throws -> CompiledGeneration {
        if let kept = current.withLock({ $0 }), kept.generation == snapshot.generation { return kept }
        counters.add(1, to: .compiles)
        let compiled = try CompiledGeneration(compiling: snapshot, proceeding: proceeding)
        // The old tables are released outside the lock, when `previous` goes.
        let previous = current.withLock { current in
            defer { current = compiled }
            return current
        }
        _ = previous
        return compiled
    }

    /// The compiled tables of `generation` if they are ready, without waiting.
    func ready(_ generation: UInt64) -> CompiledGeneration? {
        current.withLock { $0?.generation == generation ? $0 : nil }
    }

    /// Has the generation `snapshot` serves compiled on `queue` now, before any `map` asks for
    /// it, then calls `done`: a `map` queued behind it finds it ready. A compile that a newer
    /// reload overtakes gives up (`done` is still called), and that reload's own takes over.
    func compileNow(
        current snapshot: @escaping @Sendable () -> ResourceSnapshot, on queue: DispatchQueue,
        then done: @escaping @Sendable () -> Void
    ) {
        let generation = snapshot().generation
        queued.store(max(queued.load(ordering: .relaxed), generation), ordering: .relaxed)
        queue.async { [self] in
            defer { done() }
            let served = snapshot()
            guard served.generation == generation else { return }
            // A failure (tables past the format's limits) leaves lookups on the catalog, and
            // `map` says why; an abandoned compile leaves the newer generation to its own.
            do {
                _ = try compiled(served) { snapshot().generation == generation }
            } catch CompiledTablesError.abandoned {
            } catch {
                self.failure.withLock { $0 = (generation, "\(error)") }
            }
        }
    }

    /// Has the generation `snapshot` serves compiled on `queue` unless a compile of it was
    /// queued already (a `map` that found it not ready asks this).
    func compileIfNotQueued(current snapshot: @escaping @Sendable () -> ResourceSnapshot, on queue: DispatchQueue) {
        guard queued.load(ordering: .relaxed) < snapshot().generation else { return }
        compileNow(current: snapshot, on: queue) {}
    }

    /// Why the compile of `generation` failed, if it did.
    func failure(of generation: UInt64) -> String? {
        failure.withLock { $0?.generation == generation ? $0?.message : nil }
    }

    /// Has `generation` compiled on `queue` once it has been served for ``settleDelay``, unless
    /// it was asked for already. `snapshot` gives the snapshot served: a generation replaced
    /// before its compile starts, or while it runs, is left for the next lookup to ask again.
    func compileSoon(
        _ generation: UInt64, current snapshot: @escaping @Sendable () -> ResourceSnapshot, on queue: DispatchQueue
    ) {
        guard requested.load(ordering: .relaxed) < generation else { return }
        var seen = requested.load(ordering: .relaxed)
        while seen < generation {
            let (exchanged, original) = requested.compareExchange(
                expected: seen, desired: generation, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
        guard seen < generation else { return }
        queue.asyncAfter(deadline: .now() + Self.settleDelay) { [self] in
            let served = snapshot()
            guard served.generation == generation else { return }
            // A failure (tables past the format's limits, or abandoned) leaves lookups on the
            // catalog; a `map` request reports a real one.
            _ = try? compiled(served) { snapshot().generation == generation }
        }
    }
}
