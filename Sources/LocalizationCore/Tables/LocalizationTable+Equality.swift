extension LocalizationTable: Hashable {
    /// Whether both tables hold the same entries, however each stores them.
    public static func == (lhs: LocalizationTable, rhs: LocalizationTable) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard lhs.count == rhs.count else { return false }
        // Equal stores (a table compared with one built like it) answer without a walk.
        let left = lhs.stores
        let right = rhs.stores
        if left.indexedValues == right.indexedValues, left.keyIndex.positions == right.keyIndex.positions,
            left.plainValues == right.plainValues, left.fullEntries == right.fullEntries
        {
            return true
        }
        var same = true
        lhs.forEachEntry { key, entry in
            if same, rhs[key] != entry { same = false }
        }
        return same
    }

    /// Hashes the entries independently of their order and of the stores holding them.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        forEachEntry { key, entry in
            var element = Hasher()
            element.combine(key)
            element.combine(entry)
            combined ^= element.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
