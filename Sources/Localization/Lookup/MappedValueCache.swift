import LocalizationCore

/// The values one thread's mapped lookups made last, by the number of the entry that
/// answered in the segment they read first (the first language's): looking a value up again returns the same `String` (one
/// retain) instead of validating, allocating and copying a new one, which costs about as
/// much as the whole probe of the mapped tables.
///
/// Direct-mapped, ``capacity`` entries, allocated at the thread's first mapped lookup (96 KiB,
/// plus the values it holds): the strings a program shows again and again stay. A value is
/// kept in an empty entry at once, in a taken one the second time in a row the entry sees it,
/// so a walk over more distinct values than that (which would only evict) costs a store per
/// lookup, not a retain and a release of a cold string. Entry numbers mean something in one
/// segment only: the owner empties the cache whenever the segment it reads changes.
///
/// A struct holding a pointer, so a lookup through the thread cache's pointer copies
/// nothing and counts no reference; ``deallocate()`` frees it (the thread cache's destructor).
struct MappedValueCache {
    private struct Entry {
        /// The record whose value ``value`` is; ``empty`` for none.
        var record: UInt32
        /// The record looked up last here and not kept: it replaces ``record`` if it comes next.
        var candidate: UInt32
        var value: String
    }

    /// The number of entries.
    static let capacity = 4096
    private static let empty = UInt32.max
    private static let emptyEntry = Entry(record: empty, candidate: empty, value: "")

    private var entries: UnsafeMutablePointer<Entry>?

    /// `key`'s value in the segment `reader` reads, as a lookup without counts returns it:
    /// the `String` kept for its entry, or a new one, then kept; `nil` when the segment
    /// lacks the key (or is damaged).
    @inline(__always)
    mutating func value(_ key: String, in reader: SegmentReader) -> String? {
        guard let number = try? reader.entryNumber(of: key) else { return nil }
        // Entry numbers are dense in a segment: their low bits spread.
        let record = UInt32(truncatingIfNeeded: number)
        let entry = storage + (Int(record) & (Self.capacity - 1))
        if entry.pointee.record == record { return entry.pointee.value }
        guard let bytes = try? reader.value(of: number) else { return nil }
        let value = String(decoding: bytes, as: UTF8.self)
        if entry.pointee.record == Self.empty || entry.pointee.candidate == record {
            entry.pointee.record = record
            entry.pointee.value = value
        } else {
            entry.pointee.candidate = record
        }
        return value
    }

    /// Lets go of every value: the generation they came from is no longer read.
    mutating func removeAll() {
        guard let entries else { return }
        for index in 0..<Self.capacity
        where entries[index].record != Self.empty || entries[index].candidate != Self.empty {
            entries[index] = Self.emptyEntry
        }
    }

    /// Frees the entries and the values they hold.
    mutating func deallocate() {
        guard let entries else { return }
        entries.deinitialize(count: Self.capacity)
        entries.deallocate()
        self.entries = nil
    }

    /// The entries, allocated (all empty) on first use.
    private var storage: UnsafeMutablePointer<Entry> {
        mutating get {
            if let entries { return entries }
            let allocated = UnsafeMutablePointer<Entry>.allocate(capacity: Self.capacity)
            allocated.initialize(repeating: Self.emptyEntry, count: Self.capacity)
            entries = allocated
            return allocated
        }
    }
}
