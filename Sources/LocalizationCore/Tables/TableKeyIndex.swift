import Foundation

/// The keys of a table, each at a position; the tables of one name in every language share
/// one index and keep only their values, in an array by position.
///
/// Every language of a table usually has the same keys, each parsed anew from each file. A
/// shared index leaves one copy of each key and one hash table per table name instead of
/// one per language: a dictionary slot (32 bytes, at most three quarters full) and a key of
/// over 15 UTF-8 bytes (a heap allocation of its own) become a 16-byte array element.
struct TableKeyIndex: Sendable {
    /// The keys by position, in the order the index was built from.
    let keys: [String]
    /// The position of each key.
    let positions: [String: Int]

    /// No keys.
    static let empty = TableKeyIndex { _ in }

    /// An index of the keys `walk` gives, in their order, each key once.
    init(keysOf walk: LocalizationTable.KeyValueWalk) {
        var ordered: [String] = []
        var positions: [String: Int] = [:]
        walk { bytes, _ in
            let key = String(decoding: bytes, as: UTF8.self)
            guard positions[key] == nil else { return }
            positions[key] = ordered.count
            ordered.append(key)
        }
        self.keys = ordered
        self.positions = positions
    }

    /// The number of keys.
    var count: Int { keys.count }

    /// Whether the key at `position` is `bytes`, byte for byte.
    func key(at position: Int, is bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = keys[position].utf8
        guard key.count == bytes.count else { return false }
        return key.withContiguousStorageIfAvailable {
            bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? key.elementsEqual(bytes)
    }

    /// The position of `key`, or `nil` when the index has no such key.
    func position(of key: String) -> Int? {
        // An empty index is skipped without hashing `key`.
        positions.isEmpty ? nil : positions[key]
    }
}
