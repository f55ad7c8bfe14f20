/// The entries of one table (`Localizable`, `InfoPlist`…) in one language, by key.
///
/// A table is a value: once built it never changes, so a reader holding one sees a
/// complete version of it, never a mix of two.
///
/// Most entries are a plain string (every entry of a `.strings` file), so those are kept as
/// their value alone rather than a whole ``TableEntry``; loaded through ``KeySharing``, the
/// tables of one name in every language also share their keys, and each keeps its values as
/// UTF-8 in one buffer, made into a `String` only when an entry is asked for. Entries with plural forms,
/// device variants or a state are kept whole. Which store holds an entry does not change
/// what the table holds: equality and hashing compare entries, not stores.
public struct LocalizationTable: Sendable {
    /// The stores, behind one reference.
    let storage: TableStorage

    /// The stores holding the entries.
    var stores: TableStores { storage.stores }

    /// A table of `stores`.
    init(stores: TableStores) {
        storage = TableStorage(stores)
    }

    /// Creates a table from its entries.
    ///
    /// The dictionary is kept as given (its storage shared, not copied), so a String
    /// Catalog's tables cost nothing more once assembled.
    public init(entries: [String: TableEntry] = [:]) {
        self.init(stores: TableStores(fullEntries: entries))
    }

    /// Creates a table of plain strings, as a `.strings` file gives; the dictionary is
    /// kept as given (its storage shared, not copied).
    public init(strings: [String: String]) {
        self.init(stores: TableStores(plainValues: strings))
    }

    /// The entries by key, built on each use: prefer the subscript, ``count`` and
    /// ``forEachEntry(_:)``, which build nothing.
    public var entries: [String: TableEntry] {
        get {
            guard count != stores.fullEntries.count else { return stores.fullEntries }
            var all = stores.fullEntries
            all.reserveCapacity(count)
            stores.forEachPlainValue { key, value in all[key] = TableEntry(value: value) }
            return all
        }
        set { self = LocalizationTable(entries: newValue) }
    }

    /// The entry for `key`, if the table has one.
    public subscript(key: String) -> TableEntry? {
        storage.stores[key]
    }

    /// The number of keys.
    public var count: Int { storage.stores.count }

    /// Calls `body` with every key and its entry, in no particular order.
    public func forEachEntry(_ body: (_ key: String, _ entry: TableEntry) throws -> Void) rethrows {
        try storage.stores.forEachEntry(body)
    }

    /// This table with `other`'s entries laid over it: a key in both takes `other`'s entry.
    ///
    /// A store that `other` leaves alone keeps its storage: laying a `.stringsdict` (all
    /// plural entries) over a `.strings` file of other keys copies none of the strings.
    public func overlaid(with other: LocalizationTable) -> LocalizationTable {
        if count == 0 { return other }
        if other.count == 0 { return self }
        var result = stores
        other.forEachEntry { key, _ in result.removeEntry(forKey: key) }
        other.stores.forEachPlainValue { key, value in result.insertPlainValue(value, forKey: key) }
        if result.fullEntries.isEmpty {
            result.fullEntries = other.stores.fullEntries
        } else if !other.stores.fullEntries.isEmpty {
            result.fullEntries.merge(other.stores.fullEntries) { _, new in new }
        }
        return LocalizationTable(stores: result)
    }
}
