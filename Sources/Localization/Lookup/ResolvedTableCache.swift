import Synchronization

/// The cached mode's tables, shared by every thread of a ``Localizer``, with the rules that
/// keep them fresh: a `changed` event takes exactly the tables it can affect out of service
/// and raises a generation floor, so a reply computed before the reload is never kept after
/// it. The tables it takes out stay as the last known answers (stale) until their refetch
/// is kept, so a slow refetch never leaves a key without the value it had.
///
/// At most one `table` fetch per key is in flight (``fetch(for:)``), in the background:
/// lookups wait for it at most their own time.
///
/// A new connection starts with no tables, but the earlier connections' tables stay
/// behind as the last answers the daemon gave: if the new connection fails before its
/// own tables arrive, lookups fall back to them rather than to their keys, as direct mode
/// falls back to its remembered answers.
final class ResolvedTableCache: Sendable {
    private struct State {
        var tables: [ResolvedTable.Key: ResolvedTable] = [:]
        /// Tables a `changed` event took out of service, for ``lastKnown(for:)`` only, until
        /// their refetch is kept.
        var stale: [ResolvedTable.Key: ResolvedTable] = [:]
        /// Tables of earlier connections, for ``lastKnown(for:)`` only.
        var earlier: [ResolvedTable.Key: ResolvedTable] = [:]
        /// The `table` fetch in flight per key, on this connection.
        var fetches: [ResolvedTable.Key: BackgroundFetch<ResolvedTable>] = [:]
        /// The newest generation an event announced: older tables are not kept.
        var floor: UInt64 = 0
        /// Counts connections (bumped by ``reset()``): generations restart when the daemon does.
        var connectionNumber = 0
    }

    private let state = Mutex(State())

    /// The cached table for `key`, if any.
    func table(for key: ResolvedTable.Key) -> ResolvedTable? {
        state.withLock { $0.tables[key] }
    }

    /// The newest table the daemon gave for `key`, on this connection (stale or not) or an
    /// earlier one.
    func lastKnown(for key: ResolvedTable.Key) -> ResolvedTable? {
        state.withLock { $0.tables[key] ?? $0.stale[key] ?? $0.earlier[key] }
    }

    /// The `table` fetch in flight for `key`, and whether it is new: then the caller fetches
    /// and ends it with ``endFetch(_:for:with:)``.
    func fetch(for key: ResolvedTable.Key) -> (fetch: BackgroundFetch<ResolvedTable>, isNew: Bool) {
        state.withLock { state in
            if let fetch = state.fetches[key] { return (fetch, false) }
            let fetch = BackgroundFetch<ResolvedTable>()
            state.fetches[key] = fetch
            return (fetch, true)
        }
    }

    /// Ends `fetch` with `table` (`nil`: it failed), waking the lookups that wait for it.
    func endFetch(_ fetch: BackgroundFetch<ResolvedTable>, for key: ResolvedTable.Key, with table: ResolvedTable?) {
        state.withLock { if $0.fetches[key] === fetch { $0.fetches[key] = nil } }
        fetch.finish(with: table)
    }

    /// The current connection's number, taken before a fetch and given to ``store(_:fetchedOnConnection:)``.
    var connectionNumber: Int { state.withLock { $0.connectionNumber } }

    /// Keeps `table` unless an event newer than it arrived, or the connection it came from
    /// was replaced, since the fetch began; returns whether it was kept.
    @discardableResult
    func store(_ table: ResolvedTable, fetchedOnConnection connectionNumber: Int) -> Bool {
        state.withLock { state in
            guard connectionNumber == state.connectionNumber, table.generation >= state.floor else { return false }
            state.tables[table.key] = table
            state.stale[table.key] = nil
            return true
        }
    }

    /// Takes every table a change of (`language`, `table`) can affect out of service: this
    /// connection's stay as the last known answers until their refetch is kept; earlier
    /// connections' are dropped.
    func invalidate(_ changes: [LocalizationChange.Table], generation: UInt64) {
        state.withLock { state in
            state.floor = max(state.floor, generation)
            for change in changes {
                func unaffected(_ key: ResolvedTable.Key, _ cached: ResolvedTable) -> Bool {
                    !(key.table == change.table && cached.depends(on: change.language))
                }
                let affected = state.tables.filter { !unaffected($0.key, $0.value) }
                state.tables = state.tables.filter(unaffected)
                state.stale.merge(affected) { _, newer in newer }
                state.earlier = state.earlier.filter(unaffected)
            }
        }
    }

    /// Drops the tables, of this connection and earlier ones, whose key `isAnswered` says
    /// something else answers now (mapped mode's generation).
    func drop(where isAnswered: (ResolvedTable.Key) -> Bool) {
        state.withLock { state in
            state.tables = state.tables.filter { !isAnswered($0.key) }
            state.stale = state.stale.filter { !isAnswered($0.key) }
            state.earlier = state.earlier.filter { !isAnswered($0.key) }
        }
    }

    /// Serves nothing more from the cache: a new connection, whose daemon may serve
    /// anything. The tables stay for ``lastKnown(for:)`` only; the fetches in flight are
    /// not waited for any more (they were asked of the old one).
    func reset() {
        state.withLock { state in
            let earlier = state.earlier.merging(state.stale) { _, newer in newer }
                .merging(state.tables) { _, newer in newer }
            state = State(earlier: earlier, connectionNumber: state.connectionNumber + 1)
        }
    }
}
