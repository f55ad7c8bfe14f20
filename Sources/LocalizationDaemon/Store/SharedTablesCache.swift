import Synchronization

/// The sealed file of the generation served now, compiled on the first `map` request for it
/// (lazily: a daemon whose clients never map pays nothing) and replaced — the old one dropped
/// — on the first request after a reload. Clients keep their own descriptors and mappings,
/// so dropping it ends nothing they use.
final class SharedTablesCache: Sendable {
    private let current = Mutex<SharedTablesFile?>(nil)

    /// The file of `snapshot`'s generation: the one kept, else a new one, which replaces it.
    /// Called on one queue at a time (the service's `l10nd.compile`), so a generation is
    /// compiled once.
    func file(for snapshot: ResourceSnapshot) throws -> SharedTablesFile {
        if let kept = current.withLock({ $0 }), kept.generation == snapshot.generation { return kept }
        let compiled = try SharedTablesFile(compiling: snapshot)
        // The old file is released outside the lock, when `previous` goes.
        let previous = current.withLock { current in
            defer { current = compiled }
            return current
        }
        _ = previous
        return compiled
    }
}
