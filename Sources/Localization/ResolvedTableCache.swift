import Synchronization

/// The cached mode's tables, shared by every thread of a ``Localizer``, with the rules that
/// keep them fresh: a `changed` event drops exactly the tables it can affect and raises a
/// generation floor, so a reply computed before the reload is never kept after it.
final class ResolvedTableCache: Sendable {
    private struct State {
        var tables: [ResolvedTable.Key: ResolvedTable] = [:]
        /// The newest generation an event announced: older tables are not kept.
        var floor: UInt64 = 0
        /// Bumped per connection: generations restart when the daemon does.
        var incarnation = 0
    }

    private let state = Mutex(State())

    /// The cached table for `key`, if any.
    func table(for key: ResolvedTable.Key) -> ResolvedTable? {
        state.withLock { $0.tables[key] }
    }

    /// The current connection's number, taken before a fetch and given to ``store(_:incarnation:)``.
    var incarnation: Int { state.withLock { $0.incarnation } }

    /// Keeps `table` unless an event newer than it arrived, or the connection it came from
    /// was replaced, since the fetch began; returns whether it was kept.
    @discardableResult
    func store(_ table: ResolvedTable, incarnation: Int) -> Bool {
        state.withLock { state in
            guard incarnation == state.incarnation, table.generation >= state.floor else { return false }
            state.tables[table.key] = table
            return true
        }
    }

    /// Drops every table a change of (`language`, `table`) can affect.
    func invalidate(_ changes: [LocalizationChange.Table], generation: UInt64) {
        state.withLock { state in
            state.floor = max(state.floor, generation)
            for change in changes {
                state.tables = state.tables.filter { key, cached in
                    !(key.table == change.table && cached.dependsOn.contains(change.language))
                }
            }
        }
    }

    /// Forgets everything: a new connection, whose daemon may serve anything.
    func reset() {
        state.withLock { state in
            state = State(incarnation: state.incarnation + 1)
        }
    }
}
