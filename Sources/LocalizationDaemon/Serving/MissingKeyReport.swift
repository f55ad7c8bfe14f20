import Synchronization

/// Counts lookups that the language asked for could not answer, per (language, table,
/// key), for `l10nctl missing`: keys no language had, and keys a fallback answered
/// (``Entry/servedBy``) — what users of that language saw untranslated.
///
/// Memory is bounded: past ``capacity`` distinct entries, new ones are only counted in
/// ``droppedEntries`` (a flood of random keys from a client cannot grow the daemon).
package final class MissingKeyReport: Sendable {
    /// One missing key and how often it was asked for.
    package struct Entry: Sendable, Hashable, Comparable {
        /// The language asked for (the first of the request's preference list).
        package var language: String
        /// The table.
        package var table: String
        /// The key the language asked for lacked.
        package var key: String
        /// How many lookups missed it.
        package var count: Int
        /// The language that answered instead (`Base`, the development language, a later
        /// preference), or `nil` when no language had the key. The latest lookup's.
        package var servedBy: String?

        /// Orders by language, table, key.
        package static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.language, lhs.table, lhs.key) < (rhs.language, rhs.table, rhs.key)
        }
    }

    private struct Key: Hashable {
        var language: String
        var table: String
        var key: String
    }

    private struct Tally {
        var count: Int
        var servedBy: String?
    }

    private struct State {
        var counts: [Key: Tally] = [:]
        var dropped = 0
    }

    /// The most distinct entries kept.
    package let capacity: Int
    /// The longest key kept; longer keys are cut (they are still counted).
    package static let maximumKeyLength = 256
    private let state = Mutex(State())

    /// Creates an empty report keeping at most `capacity` entries.
    package init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Counts one miss: `key` not found in `language`, answered by `servedBy` or by none.
    package func record(language: String, table: String, key: String, servedBy: String? = nil) {
        let entry = Key(language: language, table: table, key: String(key.prefix(Self.maximumKeyLength)))
        state.withLock { state in
            if let tally = state.counts[entry] {
                state.counts[entry] = Tally(count: tally.count + 1, servedBy: servedBy)
            } else if state.counts.count < capacity {
                state.counts[entry] = Tally(count: 1, servedBy: servedBy)
            } else {
                state.dropped += 1
            }
        }
    }

    /// Every entry, sorted by language, table and key.
    package var entries: [Entry] {
        state.withLock { Self.entries(of: $0) }.sorted()
    }

    /// Every entry and the dropped count, and an empty report left behind, in one step.
    package func take() -> (entries: [Entry], dropped: Int) {
        let taken = state.withLock { state in
            defer { state = State() }
            return (Self.entries(of: state), state.dropped)
        }
        return (taken.0.sorted(), taken.1)
    }

    private static func entries(of state: State) -> [Entry] {
        state.counts.map {
            Entry(
                language: $0.key.language, table: $0.key.table, key: $0.key.key, count: $0.value.count,
                servedBy: $0.value.servedBy)
        }
    }

    /// Misses not kept because the report was full.
    package var droppedEntries: Int { state.withLock { $0.dropped } }

    /// Forgets the entries `isAnswered` says the language has now (a reload brought its
    /// translation): the report lists what users still see untranslated, not what they once did.
    package func removeAll(where isAnswered: (_ language: String, _ table: String, _ key: String) -> Bool) {
        // The checks run outside the lock (each is a lookup); only the removal takes it.
        let answered = state.withLock { Array($0.counts.keys) }.filter { isAnswered($0.language, $0.table, $0.key) }
        guard !answered.isEmpty else { return }
        state.withLock { state in
            for key in answered { state.counts[key] = nil }
        }
    }

    /// Forgets everything.
    package func reset() {
        state.withLock { $0 = State() }
    }
}
