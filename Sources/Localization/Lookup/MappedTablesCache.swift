import Synchronization

/// Mapped mode's current generation, shared by every thread of a ``Localizer``, with the
/// rules that keep it fresh: a `changed` event drops a generation older than it announces
/// (lookups then map the new one), and a mapping received for an older generation than an
/// event announced is not kept.
///
/// Dropping a generation only lets go of this reference: lookups that hold it finish on it,
/// and its pages are unmapped when the last one lets go.
final class MappedTablesCache: Sendable {
    private struct State {
        var current: MappedTables?
        /// The last generation of an earlier connection, for answers while the daemon is away.
        var lastKnown: MappedTables?
        /// The newest generation an event announced: older tables are not kept.
        var floor: UInt64 = 0
        /// Counts connections (bumped by ``reset()``): generations restart when the daemon does.
        var connectionNumber = 0
        /// The connection on which a `map` failed: mapped lookups fall back to cached ones
        /// until the next connection, rather than asking again on every lookup.
        var failedConnection: Int?
        /// Whether a thread is asking `map` now.
        var fetching = false
    }

    private let state = Mutex(State())

    /// The current generation, if mapped.
    var current: MappedTables? { state.withLock { $0.current } }

    /// The current generation, else the newest one from before the daemon went away.
    var lastKnown: MappedTables? { state.withLock { $0.current ?? $0.lastKnown } }

    /// Whether a `map` may be tried: none failed on this connection. With the number to hand
    /// to ``store(_:fetchedOnConnection:)`` or ``noteFailure(onConnection:)``.
    var attempt: Int? {
        state.withLock { $0.failedConnection == $0.connectionNumber ? nil : $0.connectionNumber }
    }

    /// Claims the one `map` in flight: `false` when another thread is asking already (the
    /// first `map` after a reload waits for the daemon to compile, seconds for a million
    /// strings; meanwhile other lookups are answered as in cached mode, not held up).
    /// A `true` is followed by ``endFetch()``.
    func beginFetch() -> Bool {
        state.withLock { state in
            if state.fetching { return false }
            state.fetching = true
            return true
        }
    }

    /// Ends the `map` ``beginFetch()`` claimed.
    func endFetch() {
        state.withLock { $0.fetching = false }
    }

    /// Keeps `tables` unless an event newer than them arrived, or the connection changed,
    /// since the fetch began; returns whether they were kept.
    @discardableResult
    func store(_ tables: MappedTables, fetchedOnConnection connectionNumber: Int) -> Bool {
        state.withLock { state in
            guard connectionNumber == state.connectionNumber, tables.generation >= state.floor else { return false }
            if let current = state.current, current.generation > tables.generation { return false }
            state.current = tables
            return true
        }
    }

    /// Remembers that `map` failed on connection `connectionNumber`.
    func noteFailure(onConnection connectionNumber: Int) {
        state.withLock { if $0.connectionNumber == connectionNumber { $0.failedConnection = connectionNumber } }
    }

    /// A reload produced `generation`: an older current generation is dropped.
    func invalidate(generation: UInt64) {
        let dropped = state.withLock { state -> MappedTables? in
            state.floor = max(state.floor, generation)
            guard let current = state.current, current.generation < generation else { return nil }
            state.current = nil
            return current
        }
        _ = dropped  // released outside the lock: maybe the last reference, whose deinit unmaps
    }

    /// A new connection, whose daemon may serve anything: its generations start over.
    func reset() {
        let dropped = state.withLock { state -> MappedTables? in
            let previous = state.lastKnown
            state = State(
                lastKnown: state.current ?? state.lastKnown, connectionNumber: state.connectionNumber + 1)
            return previous
        }
        _ = dropped
    }
}
