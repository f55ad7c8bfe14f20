import Foundation

/// The keys of a ``StringsTable``, by the bytes of each: an open-addressing hash table of one
/// 64-bit slot per place (the key's hash in the high half, its entry's position plus one in
/// the low half; zero is an empty place), at most half full.
///
/// Built after the scan, when the number of entries is known, so it never grows; keys are
/// compared byte for byte, and only when their hashes agree.
package struct StringsKeyIndex: Sendable {
    /// Twice as many places as entries or more, a power of two; empty for an empty table.
    private let slots: [UInt64]
    /// The number of distinct keys.
    package let count: Int
    /// The positions of the entries a later one of the same key replaces, in file order.
    package let replaced: [Int]

    /// Indexes the keys of `spans` in `buffer`; a later entry of a key replaces an earlier one.
    init(spans: [StringsTable.Span], in buffer: UnsafeBufferPointer<UInt8>) {
        guard !spans.isEmpty, let base = buffer.baseAddress else {
            slots = []
            count = 0
            replaced = []
            return
        }
        let capacity = max(8, (2 * spans.count).nextPowerOfTwo)
        let mask = capacity - 1
        var distinct = 0
        var replaced: [Int] = []
        slots = [UInt64](unsafeUninitializedCapacity: capacity) { slots, initialized in
            slots.initialize(repeating: 0)
            initialized = capacity
            spans.withUnsafeBufferPointer { spans in
                for position in spans.indices {
                    let key = base + Int(spans[position].keyStart)
                    let length = Int(spans[position].keyLength)
                    let hash = Self.hash(key, length)
                    var place = Int(truncatingIfNeeded: hash) & mask
                    while true {
                        let slot = slots[place]
                        if slot == 0 {
                            slots[place] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(position + 1)
                            distinct += 1
                            break
                        }
                        if slot >> 32 == hash >> 32 {
                            let earlier = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                            let span = spans[earlier]
                            if Int(span.keyLength) == length, memcmp(base + Int(span.keyStart), key, length) == 0 {
                                replaced.append(earlier)
                                slots[place] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(position + 1)
                                break
                            }
                        }
                        place = (place + 1) & mask
                    }
                }
            }
        }
        count = distinct
        // Replaced in the order their replacements came; file order is what callers walk.
        self.replaced = replaced.sorted()
    }

    /// The position of the entry that gives `key`'s value, or `nil` when no entry has it.
    func position(
        of key: UnsafeBufferPointer<UInt8>, spans: [StringsTable.Span], in buffer: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        guard !slots.isEmpty, let base = buffer.baseAddress else { return nil }
        let length = key.count
        let keyBase = key.baseAddress ?? base
        let hash = Self.hash(keyBase, length)
        let mask = slots.count - 1
        var place = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[place]
            if slot == 0 { return nil }
            if slot >> 32 == hash >> 32 {
                let position = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                let span = spans[position]
                if Int(span.keyLength) == length, memcmp(base + Int(span.keyStart), keyBase, length) == 0 {
                    return position
                }
            }
            place = (place + 1) & mask
        }
    }

    /// A hash of `count` bytes at `bytes`, eight at a time, seeded per process so a file
    /// cannot be written to make every key collide.
    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = seed ^ UInt64(truncatingIfNeeded: count) &* multiplier
        var index = 0
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* multiplier
            hash ^= hash &>> 29
            index &+= 8
        }
        if index < count {
            var word: UInt64 = 0
            if count >= 8 {
                // The last eight bytes, overlapping the word before: one load, not a byte loop
                // (the count, hashed first, keeps keys of different lengths apart).
                word = UnsafeRawPointer(bytes + (count &- 8)).loadUnaligned(as: UInt64.self)
            } else {
                var shift: UInt64 = 0
                while index < count {
                    word |= UInt64(bytes[index]) &<< shift
                    shift &+= 8
                    index &+= 1
                }
            }
            hash = (hash ^ word) &* multiplier
            hash ^= hash &>> 29
        }
        hash = hash &* multiplier
        return hash ^ hash &>> 32
    }

    private static let seed = UInt64.random(in: 0...UInt64.max)
}

extension Int {
    /// The smallest power of two at least this (which must be positive).
    fileprivate var nextPowerOfTwo: Int {
        1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
