import Synchronization

/// The cached mode's tables, shared by every thread of a ``Localizer``, with the rules that
/// keep them fresh: a `changed` event drops exactly the tables it can affect and raises a
/// generation floor, so a reply computed before the reload is never kept after it.
///
/// A new connection starts with no tables, but the earlier connections' tables stay
/// behind as the last answers the daemon gave: if the new connection fails before its
/// own tables arrive, lookups fall back to them rather than to their keys, as direct mode
/// falls back to its remembered answers.
final class ResolvedTableCache: Sendable {
    private struct State {
        var tables: [ResolvedTable.Key: ResolvedTable] = [:]
        /// Tables of earlier connections, for ``lastKnown(for:)`` only.
        var earlier: [ResolvedTable.Key: ResolvedTable] = [:]
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

    /// The newest table the daemon gave for `key`, on this connection or an earlier one.
    func lastKnown(for key: ResolvedTable.Key) -> ResolvedTable? {
        state.withLock { $0.tables[key] ?? $0.earlier[key] }
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
            return true
        }
    }

    /// Drops every table a change of (`language`, `table`) can affect.
    func invalidate(_ changes: [LocalizationChange.Table], generation: UInt64) {
        state.withLock { state in
            state.floor = max(state.floor, generation)
            for change in changes {
                func unaffected(_ key: ResolvedTable.Key, _ cached: ResolvedTable) -> Bool {
                    !(key.table == change.table && cached.dependsOn.contains(change.language))
                }
                state.tables = state.tables.filter(unaffected)
                state.earlier = state.earlier.filter(unaffected)
            }
        }
    }

    /// Drops the tables, of this connection and earlier ones, whose key `isAnswered` says
    /// something else answers now (mapped mode's generation).
    func drop(where isAnswered: (ResolvedTable.Key) -> Bool) {
        state.withLock { state in
            state.tables = state.tables.filter { !isAnswered($0.key) }
            state.earlier = state.earlier.filter { !isAnswered($0.key) }
        }
    }

    /// Serves nothing more from the cache: a new connection, whose daemon may serve
    /// anything. The tables stay for ``lastKnown(for:)`` only.
    func reset() {
        state.withLock { state in
            let earlier = state.earlier.merging(state.tables) { _, newer in newer }
            state = State(earlier: earlier, connectionNumber: state.connectionNumber + 1)
        }
    }
}
