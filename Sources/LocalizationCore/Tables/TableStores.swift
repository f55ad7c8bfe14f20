/// What a ``LocalizationTable`` holds, in the stores it keeps its entries in; mutable while
/// a table is built.
///
/// A key is in one store only. Plain entries, the bulk of most tables, are kept as their
/// value alone: as UTF-8 bytes by position in a ``TableKeyIndex`` shared with the table's
/// other languages (``IndexedValues``), or as a `String` by key when the index lacks the
/// key. Every other entry is kept whole.
struct TableStores: Sendable {
    /// The keys whose values ``indexedValues`` holds by position; shared with other tables.
    var keyIndex = TableKeyIndex.empty
    /// Plain values by their key's position in ``keyIndex``, as many positions as the index
    /// has keys.
    var indexedValues = IndexedValues()
    /// Plain entries whose key is not in ``keyIndex``: their value alone.
    var plainValues: [String: String] = [:]
    /// Every other entry (a plain one may be here too, when the table was built from entries).
    var fullEntries: [String: TableEntry] = [:]

    /// The number of keys.
    var count: Int { indexedValues.count + plainValues.count + fullEntries.count }

    /// The entry for `key`, if a store has one.
    subscript(key: String) -> TableEntry? {
        // An empty store is skipped without hashing `key`: most tables use only one.
        if indexedValues.count > 0, let position = keyIndex.position(of: key),
            let value = indexedValues.value(at: position)
        {
            return TableEntry(value: value)
        }
        if !plainValues.isEmpty, let value = plainValues[key] { return TableEntry(value: value) }
        return fullEntries.isEmpty ? nil : fullEntries[key]
    }

    /// Calls `body` with every key and its entry, in no particular order.
    func forEachEntry(_ body: (_ key: String, _ entry: TableEntry) throws -> Void) rethrows {
        try forEachPlainValue { key, value in try body(key, TableEntry(value: value)) }
        for (key, entry) in fullEntries { try body(key, entry) }
    }

    /// Calls `body` with every entry kept as a plain value.
    func forEachPlainValue(_ body: (_ key: String, _ value: String) throws -> Void) rethrows {
        if indexedValues.count > 0 {
            for (key, position) in keyIndex.positions {
                if let value = indexedValues.value(at: position) { try body(key, value) }
            }
        }
        for (key, value) in plainValues { try body(key, value) }
    }

    /// Removes `key`'s entry from whichever store holds it. A store without the key is not
    /// touched, so its storage stays shared.
    mutating func removeEntry(forKey key: String) {
        if indexedValues.count > 0, let position = keyIndex.position(of: key), indexedValues.contains(position) {
            indexedValues.removeValue(at: position)
        } else if !plainValues.isEmpty, plainValues[key] != nil {
            plainValues[key] = nil
        } else if !fullEntries.isEmpty, fullEntries[key] != nil {
            fullEntries[key] = nil
        }
    }

    /// Adds a plain entry for `key`, which no store may hold: at its position in the key
    /// index if it has one, else by key.
    mutating func insertPlainValue(_ value: String, forKey key: String) {
        if let position = keyIndex.position(of: key) {
            indexedValues.setValue(value, at: position)
        } else {
            plainValues[key] = value
        }
    }
}

/// A table's stores behind one reference: every lookup copies a table out of the catalog's
/// dictionaries, and copying one reference is one retain where five stores would be five.
final class TableStorage: Sendable {
    /// The stores, never changed once built.
    let stores: TableStores

    /// Wraps `stores`.
    init(_ stores: TableStores) {
        self.stores = stores
    }
}
