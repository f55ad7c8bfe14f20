import Synchronization

/// Mapped mode's generations, shared by every thread of a ``Localizer``, with the rules that
/// keep lookups fresh and never blank:
///
/// - the newest generation mapped on this connection answers lookups while no `changed`
///   event announced a newer one (``current``);
/// - once one did, it stops answering lookups (they are asked of the daemon, one round trip
///   each, until the new generation is mapped) but stays, with the last generation of an
///   earlier connection, as the last known answers for when the daemon fails (``kept``):
///   the process's own mapped copy, immutable, valid as long as it is mapped;
/// - a mapping received for an older generation than an event announced is not kept;
/// - at most one `map` is in flight (``beginMap()``); one wanted meanwhile (an event came) is
///   asked when it ends.
///
/// Replacing a generation only lets go of this reference: lookups that hold it finish on it,
/// and its pages are unmapped when the last one lets go. A localizer keeps at most two
/// generations here (this connection's newest and an earlier connection's last), and drops
/// the earlier one once this connection has mapped its own.
final class MappedGenerations: Sendable {
    private struct State {
        /// The newest generation mapped on this connection: older than ``floor`` once an event
        /// announced a newer one.
        var newest: LookupSegments?
        /// The last generation of an earlier connection (or, in a child made by `fork()`, the
        /// parent's), for answers while the daemon is away.
        var lastKnown: LookupSegments?
        /// The connection ``lastKnown`` was mapped on (0: before this cache's first).
        var lastKnownConnection = 0
        /// The newest generation an event announced: older tables answer only as last known.
        var floor: UInt64 = 0
        /// Counts connections (bumped by ``reset()``): generations restart when the daemon does.
        var connectionNumber = 0
        /// The connection on which a `map` was refused: lookups are asked of the daemon until
        /// the next connection, rather than a `map` after every event.
        var failedConnection: Int?
        /// Whether a `map` is in flight, and whether another was wanted meanwhile.
        var mapInFlight = false
        var mapWanted = false
    }

    private let state: ForkSafeMutex<State>

    /// An empty cache; `lastKnown` answers as an earlier connection's last generation.
    init(lastKnown: LookupSegments? = nil) {
        state = ForkSafeMutex(State(lastKnown: lastKnown))
    }

    /// The generation that answers lookups: the newest mapped, unless an event announced a
    /// newer one.
    var current: LookupSegments? {
        state.withLock { state in state.newest.flatMap { $0.generation >= state.floor ? $0 : nil } }
    }

    /// Every generation kept, newest first: this connection's newest (current or not), then an
    /// earlier connection's last. What answers when the daemon fails.
    var kept: [LookupSegments] { state.withLock { [$0.newest, $0.lastKnown].compactMap { $0 } } }

    /// The newest generation kept (``kept``'s first) and the number of the connection it was
    /// mapped on: a restarted daemon counts generations anew, so only within one connection
    /// do generation numbers say which is newer.
    var newestKept: (segments: LookupSegments, connection: Int)? {
        state.withLock { state in
            if let newest = state.newest { return (newest, state.connectionNumber) }
            return state.lastKnown.map { ($0, state.lastKnownConnection) }
        }
    }

    /// The number of the connection now up (or last up), bumped by ``reset()``.
    var connectionNumber: Int { state.withLock { $0.connectionNumber } }

    /// Claims the one `map` in flight and returns the connection number to hand to
    /// ``endMap(_:onConnection:refused:)``; `nil` when the current generation is mapped, a
    /// `map` was refused on this connection, or one is in flight (which then asks again
    /// when it ends).
    func beginMap() -> Int? {
        state.withLock { state in
            if state.failedConnection == state.connectionNumber { return nil }
            if let newest = state.newest, newest.generation >= state.floor { return nil }
            if state.mapInFlight {
                state.mapWanted = true
                return nil
            }
            state.mapInFlight = true
            return state.connectionNumber
        }
    }

    /// Ends the `map` begun on connection `connectionNumber`: keeps `tables` unless an event
    /// newer than them arrived, or the connection changed, meanwhile; notes a `refused` one.
    /// Returns whether `tables` were kept, and whether a `map` should be asked again (one was
    /// wanted meanwhile, or the reply was already outdated).
    func endMap(_ tables: LookupSegments?, onConnection connectionNumber: Int, refused: Bool)
        -> (kept: Bool, askAgain: Bool)
    {
        var dropped: [LookupSegments] = []
        let outcome = state.withLock { state -> (kept: Bool, askAgain: Bool) in
            // A `map` of an earlier connection: the new one asks its own (``reset()``).
            guard connectionNumber == state.connectionNumber else { return (false, false) }
            state.mapInFlight = false
            defer { state.mapWanted = false }
            if refused { state.failedConnection = connectionNumber }
            var kept = false
            if let tables, tables.generation >= state.floor,
                (state.newest?.generation ?? 0) <= tables.generation
            {
                // This connection answers now: an earlier one's generation is no longer needed.
                dropped = [state.newest, state.lastKnown].compactMap { $0 }
                state.newest = tables
                state.lastKnown = nil
                kept = true
            }
            let stale = state.newest.map { $0.generation < state.floor } ?? true
            // Wanted meanwhile (an event came), or outdated.
            return (kept, !refused && tables != nil && (state.mapWanted || stale))
        }
        _ = dropped  // released here, outside the lock: maybe the last reference, which unmaps
        return outcome
    }

    /// A reload produced `generation`: an older generation stops answering lookups, and stays
    /// as the last known answers until the new one is mapped.
    func invalidate(generation: UInt64) {
        state.withLock { $0.floor = max($0.floor, generation) }
    }

    /// A new connection, whose daemon may serve anything: its generations start over. The
    /// newest generation so far stays as the last known answers.
    func reset() {
        let dropped = state.withLock { state -> LookupSegments? in
            let previous = state.newest == nil ? nil : state.lastKnown
            state = State(
                lastKnown: state.newest ?? state.lastKnown,
                lastKnownConnection: state.newest == nil ? state.lastKnownConnection : state.connectionNumber,
                connectionNumber: state.connectionNumber + 1)
            return previous
        }
        _ = dropped  // released outside the lock: maybe the last reference, whose deinit unmaps
    }
}
