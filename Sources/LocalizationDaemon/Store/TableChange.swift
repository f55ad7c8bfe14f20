public import LocalizationCore

/// One (language, table) whose content changed in a reload, as `changed` events list them.
public struct TableChange: Sendable, Hashable, Comparable {
    /// The language identifier (`ja`, `zh-Hant`, `Base`).
    public var language: String
    /// The table name.
    public var table: String

    /// Creates a change.
    public init(language: String, table: String) {
        self.language = language
        self.table = table
    }

    /// Orders by language, then table.
    public static func < (lhs: TableChange, rhs: TableChange) -> Bool {
        (lhs.language, lhs.table) < (rhs.language, rhs.table)
    }
}

/// What one refresh of the resource store did.
public struct ChangeSummary: Sendable, Hashable {
    /// The generation after the refresh (unchanged when nothing changed).
    public var generation: UInt64
    /// The tables whose content changed, sorted.
    public var changes: [TableChange]
    /// How many files were read and parsed again (their bytes had changed).
    public var filesParsed: Int
    /// The parse errors the refresh found (each file keeps its last good table).
    public var newErrors: [ResourceParseError]
    /// Files found empty where they had content, whose last table is kept for now: refresh
    /// them again once the store's `holdGrace` has passed.
    public var heldFiles: [String] = []
    /// Roots that newly resolve to nothing or hold no language (each keeps the tables last
    /// read from it, if any).
    public var newRootErrors: [ResourceParseError] = []
}
