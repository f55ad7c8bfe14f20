import Synchronization

/// Segments the ``MessageReader`` received and mapped with a `map` reply, held under a
/// number until the caller that asked takes it: replies reach callers as values
/// (``LocalizationWire/WireReply``), so the reader puts the number in the reply's fields
/// (`"mapping"`) and the mapping here.
///
/// A caller that gave up before its reply arrived never takes its mapping: past
/// ``capacity`` the oldest are dropped (unmapped), so such leftovers cost little and not for long.
enum ReceivedMappings {
    /// The most mappings waiting to be taken.
    static let capacity = 8

    private struct Held {
        var next: Int64 = 1
        var mappings: [Int64: LookupSegments] = [:]
    }

    private static let held = ForkSafeMutex(Held())

    /// Holds `mapping` and returns the number that takes it.
    static func hold(_ mapping: LookupSegments) -> Int64 {
        held.withLock { held in
            let number = held.next
            held.next += 1
            held.mappings[number] = mapping
            if held.mappings.count > capacity, let oldest = held.mappings.keys.min() {
                held.mappings[oldest] = nil
            }
            return number
        }
    }

    /// The mapping held under `number`, no longer held; `nil` when none is.
    static func take(_ number: Int64) -> LookupSegments? {
        held.withLock { $0.mappings.removeValue(forKey: number) }
    }
}
