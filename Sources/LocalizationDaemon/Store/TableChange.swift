package import LocalizationCore

/// One (language, table) whose content changed in a reload, as `changed` events list them.
package struct TableChange: Sendable, Hashable, Comparable {
    /// The language identifier (`ja`, `zh-Hant`, `Base`).
    package var language: String
    /// The table name.
    package var table: String

    /// Creates a change.
    package init(language: String, table: String) {
        self.language = language
        self.table = table
    }

    /// Orders by language, then table.
    package static func < (lhs: TableChange, rhs: TableChange) -> Bool {
        (lhs.language, lhs.table) < (rhs.language, rhs.table)
    }
}

/// What one refresh of the resource store did.
package struct ChangeSummary: Sendable, Hashable {
    /// The generation after the refresh (unchanged when nothing changed).
    package var generation: UInt64
    /// The tables whose content changed, sorted.
    package var changes: [TableChange]
    /// How many files were read and parsed again (their bytes had changed).
    package var filesParsed: Int
    /// The parse errors the refresh found (each file keeps its last good table).
    package var newErrors: [ResourceParseError]
    /// The files among ``newErrors`` that have no last good table to keep (never parsed, or
    /// a root switched away and back): none of them is served.
    package var unservedErrorFiles: Set<String> = []
    /// Files found empty where they had content, whose last table is kept for now: refresh
    /// them again once the store's `holdGrace` has passed.
    package var heldFiles: [String] = []
    /// Entries newly left out of files that are served (an array value, the rest after a
    /// comment never closed): the rest of each file is served.
    package var newLostEntries: [ResourceParseError] = []
    /// Roots that newly resolve to nothing or hold no language (each keeps the tables last
    /// read from it, if any).
    package var newRootErrors: [ResourceParseError] = []
    /// What a `reload` or SIGHUP did with the configuration file; nil for the watcher's refreshes.
    package var configuration: ConfigurationReload?
}

extension ChangeSummary {
    /// Takes in what a later refresh did: its generation, its changes besides these, its
    /// parses and errors; its held files are what is still held.
    package mutating func absorb(_ later: ChangeSummary) {
        generation = later.generation
        changes = Set(changes).union(later.changes).sorted()
        filesParsed += later.filesParsed
        newErrors += later.newErrors
        unservedErrorFiles.formUnion(later.unservedErrorFiles)
        heldFiles = later.heldFiles
        newRootErrors += later.newRootErrors
    }
}
