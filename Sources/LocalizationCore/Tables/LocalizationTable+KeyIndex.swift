extension LocalizationTable {
    /// Whether every entry is a plain value kept by key: a table as a `.strings` file
    /// gives it, which a key index can hold.
    var isPlainByKey: Bool {
        stores.indexedValues.count == 0 && stores.fullEntries.isEmpty && !stores.plainValues.isEmpty
    }

    /// Calls its argument with the UTF-8 bytes of every key and value of a table, in the
    /// file's order if it has one; a later pair replaces an earlier one of the same key (keys
    /// compared as Swift strings), as in a `.strings` file.
    typealias KeyValueWalk =
        (_ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) -> Void

    /// A walk over the pairs of `dictionary`.
    static func walk(_ dictionary: [String: String]) -> KeyValueWalk {
        { body in
            for (key, value) in dictionary {
                var key = key
                var value = value
                key.withUTF8 { key in value.withUTF8 { body(key, $0) } }
            }
        }
    }

    /// A table of plain values kept as bytes by position in `index`, and as strings by key
    /// for keys not in it.
    ///
    /// `index` is read in order while the keys come in its order, so files that list their
    /// keys alike (as tools write them) cost a byte comparison per key: no `String` is made
    /// for the key, nor any for the value.
    init(indexing walk: KeyValueWalk, by index: TableKeyIndex) {
        var values = IndexedValues(positions: index.count)
        var unmatched: [String: String] = [:]
        var next = 0
        var inIndexOrder = true
        walk { keyBytes, value in
            let position: Int
            if inIndexOrder, next < index.count, index.key(at: next, is: keyBytes) {
                position = next
            } else {
                // Keys equal as Swift strings but not byte for byte (another normalization)
                // share a position, as they did when every key was a `String`.
                let key = String(decoding: keyBytes, as: UTF8.self)
                guard let found = index.position(of: key) else {
                    unmatched[key] = String(decoding: value, as: UTF8.self)
                    return
                }
                position = found
            }
            values.setValue(value, at: position)
            inIndexOrder = position == next
            next = position + 1
        }
        values.trimCapacity()
        self.init(stores: TableStores(keyIndex: index, indexedValues: values, plainValues: unmatched))
    }

    /// Whether the key index suits this table: at least a third of its positions hold a
    /// value (so the array costs less than the keys it shares), and it holds at least half
    /// of this table's keys (so a small table loaded first does not leave the big ones
    /// sharing nothing).
    var fitsItsKeyIndex: Bool {
        3 * stores.indexedValues.count >= stores.keyIndex.count
            && stores.indexedValues.count >= stores.plainValues.count
    }
}
