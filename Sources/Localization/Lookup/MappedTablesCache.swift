import Dispatch
import Synchronization

/// Mapped mode's generations, shared by every thread of a ``Localizer``, with the rules that
/// keep lookups fresh and never blank:
///
/// - the newest generation mapped on this connection answers lookups while no `changed`
///   event announced a newer one (``current``);
/// - once one did, it stops answering lookups (they go the cached way until the new
///   generation is mapped) but stays, with the last generation of an earlier connection, as
///   the last known answers for when the daemon fails (``kept``): the process's own mapped
///   copy, valid as long as it is mapped;
/// - a mapping received for an older generation than an event announced is not kept;
/// - at most one `map` is in flight (``Fetch``), in the background: lookups never wait for a
///   compile, only, briefly, for a young fetch.
///
/// Replacing a generation only lets go of this reference: lookups that hold it finish on it,
/// and its pages are unmapped when the last one lets go. A localizer keeps at most two
/// generations here (this connection's newest and an earlier connection's last), and drops
/// the earlier one once this connection has mapped its own.
final class MappedTablesCache: Sendable {
    /// One `map` in flight: lookups that find no current generation may wait for it, briefly.
    typealias Fetch = BackgroundFetch<Void>

    private struct State {
        /// The newest generation mapped on this connection: older than ``floor`` once an event
        /// announced a newer one.
        var newest: MappedTables?
        /// The last generation of an earlier connection, for answers while the daemon is away.
        var lastKnown: MappedTables?
        /// The newest generation an event announced: older tables answer only as last known.
        var floor: UInt64 = 0
        /// Counts connections (bumped by ``reset()``): generations restart when the daemon does.
        var connectionNumber = 0
        /// The connection on which a `map` failed: mapped lookups fall back to cached ones
        /// until the next connection, rather than asking again on every lookup.
        var failedConnection: Int?
        /// The `map` in flight, if any.
        var fetch: Fetch?
    }

    private let state = Mutex(State())

    /// The generation that answers lookups: the newest mapped, unless an event announced a
    /// newer one.
    var current: MappedTables? {
        state.withLock { state in state.newest.flatMap { $0.generation >= state.floor ? $0 : nil } }
    }

    /// Every generation kept, newest first: this connection's newest (current or not), then an
    /// earlier connection's last. What answers when the daemon fails.
    var kept: [MappedTables] { state.withLock { [$0.newest, $0.lastKnown].compactMap { $0 } } }

    /// The `map` in flight, if any.
    var inFlight: Fetch? { state.withLock { $0.fetch } }

    /// Whether a `map` may be tried: none failed on this connection. With the number to hand
    /// to ``store(_:fetchedOnConnection:)`` or ``noteFailure(onConnection:)``.
    var attempt: Int? {
        state.withLock { $0.failedConnection == $0.connectionNumber ? nil : $0.connectionNumber }
    }

    /// Claims the one `map` in flight: `nil` when the current generation is mapped, another
    /// fetch is in flight, or a `map` failed on this connection. A fetch returned is ended
    /// with ``endFetch(_:)``.
    func beginFetch() -> Fetch? {
        state.withLock { state in
            if state.fetch != nil || state.failedConnection == state.connectionNumber { return nil }
            if let newest = state.newest, newest.generation >= state.floor { return nil }
            let fetch = Fetch()
            state.fetch = fetch
            return fetch
        }
    }

    /// Ends `fetch`, waking the lookups that wait for it.
    func endFetch(_ fetch: Fetch) {
        state.withLock { if $0.fetch === fetch { $0.fetch = nil } }
        fetch.finish(with: ())
    }

    /// Keeps `tables` unless an event newer than them arrived, or the connection changed,
    /// since the fetch began; returns whether they were kept.
    @discardableResult
    func store(_ tables: MappedTables, fetchedOnConnection connectionNumber: Int) -> Bool {
        let replaced = state.withLock { state -> (kept: Bool, dropped: [MappedTables]) in
            guard connectionNumber == state.connectionNumber, tables.generation >= state.floor else {
                return (false, [])
            }
            if let newest = state.newest, newest.generation > tables.generation { return (false, []) }
            // This connection answers now: an earlier one's generation is no longer needed.
            let dropped = [state.newest, state.lastKnown].compactMap { $0 }
            state.newest = tables
            state.lastKnown = nil
            return (true, dropped)
        }
        return replaced.kept  // the dropped generations are released here, outside the lock
    }

    /// Remembers that `map` failed on connection `connectionNumber`.
    func noteFailure(onConnection connectionNumber: Int) {
        state.withLock { if $0.connectionNumber == connectionNumber { $0.failedConnection = connectionNumber } }
    }

    /// A reload produced `generation`: an older generation stops answering lookups, and stays
    /// as the last known answers until the new one is mapped.
    func invalidate(generation: UInt64) {
        state.withLock { $0.floor = max($0.floor, generation) }
    }

    /// A new connection, whose daemon may serve anything: its generations start over. The
    /// newest generation so far stays as the last known answers.
    func reset() {
        let dropped = state.withLock { state -> MappedTables? in
            let previous = state.newest == nil ? nil : state.lastKnown
            state = State(
                lastKnown: state.newest ?? state.lastKnown, connectionNumber: state.connectionNumber + 1,
                fetch: state.fetch)
            return previous
        }
        _ = dropped  // released outside the lock: maybe the last reference, whose deinit unmaps
    }
}
