/// Strings a program shows may have changed: what ``Localizer/onChange(_:)`` and
/// ``Localizer/changes()`` deliver.
///
/// Either a daemon reload (``tables`` lists exactly the changed tables) or a change of
/// source — the daemon connected, went away, came back — after which any table may differ
/// (``everything`` is true, ``tables`` is empty).
///
/// ```swift
/// for await change in Localizer.shared.changes() where change.affects(table: "Menu") {
///     rebuildMenu()
/// }
/// ```
public struct LocalizationChange: Sendable, Hashable {
    /// One (language, table) whose content changed.
    public struct Table: Sendable, Hashable {
        /// The language identifier (`ja`, `zh-Hant`, `Base`).
        public var language: String
        /// The table name (`Localizable`, `Menu`).
        public var table: String

        /// Creates a table reference.
        public init(language: String, table: String) {
            self.language = language
            self.table = table
        }
    }

    /// The daemon's generation after the change; `nil` for a change of source.
    public var generation: UInt64?
    /// The tables whose content changed.
    public var tables: [Table]
    /// Whether every table may have changed (a change of ``source``).
    public var everything: Bool
    /// What answers lookups after this change.
    public var source: LookupSource

    /// Creates a change.
    public init(generation: UInt64?, tables: [Table], everything: Bool, source: LookupSource) {
        self.generation = generation
        self.tables = tables
        self.everything = everything
        self.source = source
    }

    /// Whether values of `table` (`nil` means `Localizable`) may have changed.
    public func affects(table: String?) -> Bool {
        let name = table.flatMap { $0.isEmpty ? nil : $0 } ?? "Localizable"
        return everything || tables.contains { $0.table == name }
    }
}
