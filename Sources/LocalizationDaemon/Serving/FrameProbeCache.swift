import LocalizationCore
import Synchronization

/// The segment probe binary lookup frames of one language and table used last, kept from
/// one burst to the next: a client asking one key at a time sends a burst of one frame, and
/// making its probe (the request's chain, each candidate's segment) cost more than the
/// lookup itself. Keyed by the generation and the language's and table's bytes as sent.
///
/// It holds the segments of one table along one chain of the generation it was made for,
/// until a frame of a newer generation or another language or table replaces it.
final class FrameProbeCache: Sendable {
    /// A probe with, by candidate, whether an answer from it is one the request asked for
    /// (a fallback's goes to the missing-key report, on the general path).
    struct Made: Sendable {
        var probe: SegmentProbe
        var asked: [Bool]
    }

    private struct Entry {
        var generation: UInt64
        var language: [UInt8]
        var table: [UInt8]
        var made: Made
    }

    private let last = Mutex<Entry?>(nil)

    /// The probe for frames naming `language` and `table` in `generation`: the one kept, or
    /// the one `make` gives (kept for the next), or `nil` when `make` gives none.
    func probe(
        generation: UInt64, language: UnsafeRawBufferPointer, table: UnsafeRawBufferPointer, make: () -> Made?
    ) -> Made? {
        let kept = last.withLock { entry -> Made? in
            guard let entry, entry.generation == generation, entry.language.elementsEqual(language),
                entry.table.elementsEqual(table)
            else { return nil }
            return entry.made
        }
        if let kept { return kept }
        guard let made = make() else { return nil }
        let entry = Entry(generation: generation, language: Array(language), table: Array(table), made: made)
        last.withLock { $0 = entry }
        return made
    }
}
