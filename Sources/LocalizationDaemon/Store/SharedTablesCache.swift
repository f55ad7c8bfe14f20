import Synchronization

/// The compiled tables of the generation served now (``CompiledGeneration``): compiled on the
/// first `map` request for it, or in the background once lookups ask for it
/// (``compileSoon(_:on:)``) — lazily: a daemon nobody asks pays nothing — and replaced, the old
/// one dropped, by the first compile after a reload. Clients keep their own descriptors and
/// mappings, and lookups their reference, so dropping it ends nothing they use.
final class SharedTablesCache: Sendable {
    private let current = Mutex<CompiledGeneration?>(nil)
    /// The newest generation a background compile was asked for: each is asked for once.
    private let requested = Atomic<UInt64>(0)

    /// The compiled tables of `snapshot`'s generation: the ones kept, else new ones, which
    /// replace them. Called on one queue at a time (the service's `l10nd.compile`), so a
    /// generation is compiled once.
    func compiled(for snapshot: ResourceSnapshot) throws -> CompiledGeneration {
        if let kept = current.withLock({ $0 }), kept.generation == snapshot.generation { return kept }
        let compiled = try CompiledGeneration(compiling: snapshot)
        // The old tables are released outside the lock, when `previous` goes.
        let previous = current.withLock { current in
            defer { current = compiled }
            return current
        }
        _ = previous
        return compiled
    }

    /// The sealed file of `snapshot`'s generation, for a `map` reply (see ``compiled(for:)``).
    func file(for snapshot: ResourceSnapshot) throws -> SharedTablesFile {
        try compiled(for: snapshot).file
    }

    /// The compiled tables of `generation` if they are ready, without waiting.
    func ready(_ generation: UInt64) -> CompiledGeneration? {
        current.withLock { $0?.generation == generation ? $0 : nil }
    }

    /// Asks for `generation` to be compiled by `compile` (which runs it on the compile queue),
    /// unless it was asked for already.
    func compileSoon(_ generation: UInt64, on compile: () -> Void) {
        guard requested.load(ordering: .relaxed) < generation else { return }
        var seen = requested.load(ordering: .relaxed)
        while seen < generation {
            let (exchanged, original) = requested.compareExchange(
                expected: seen, desired: generation, ordering: .relaxed)
            if exchanged { return compile() }
            seen = original
        }
    }
}
