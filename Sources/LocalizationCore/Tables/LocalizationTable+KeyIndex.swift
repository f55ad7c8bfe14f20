extension LocalizationTable {
    /// Whether every entry is a plain value kept by key: a table as a `.strings` file
    /// gives it, which a key index can hold.
    var isPlainByKey: Bool {
        stores.indexedCount == 0 && stores.fullEntries.isEmpty && !stores.plainValues.isEmpty
    }

    /// Calls its argument with every key and value of a table, in the file's order if it
    /// has one; a later pair replaces an earlier one of the same key, as in a `.strings` file.
    typealias KeyValueWalk = (_ body: (_ key: String, _ value: String) -> Void) -> Void

    /// A table of plain values kept by position in `index`, and by key for keys not in it.
    ///
    /// `index` is read in order while the keys come in its order, so files that list their
    /// keys alike (as tools write them) cost a string comparison per key, not a hash.
    init(indexing walk: KeyValueWalk, by index: TableKeyIndex) {
        var values = [String?](repeating: nil, count: index.count)
        var matched = 0
        var unmatched: [String: String] = [:]
        var next = 0
        var inIndexOrder = true
        walk { key, value in
            let guessed = inIndexOrder && next < index.count && index.keys[next] == key
            guard let position = guessed ? next : index.position(of: key) else {
                unmatched[key] = value
                return
            }
            if values[position] == nil { matched += 1 }
            values[position] = value
            inIndexOrder = position == next
            next = position + 1
        }
        self.init(
            stores: TableStores(keyIndex: index, indexedValues: values, indexedCount: matched, plainValues: unmatched))
    }

    /// Whether the key index suits this table: at least a third of its positions hold a
    /// value (so the array costs less than the keys it shares), and it holds at least half
    /// of this table's keys (so a small table loaded first does not leave the big ones
    /// sharing nothing).
    var fitsItsKeyIndex: Bool {
        3 * stores.indexedCount >= stores.keyIndex.count && stores.indexedCount >= stores.plainValues.count
    }
}
