public import LocalizationCore

/// One complete, immutable version of everything the daemon serves.
///
/// Readers take a snapshot and use it for a whole request; a reload builds the next one
/// and swaps it in at once, so a reader sees the old tables or the new, never a mix.
public struct ResourceSnapshot: Sendable {
    /// Increases by one with every reload that changed something; starts at 1.
    public let generation: UInt64
    /// The assembled tables.
    public let catalog: ResourceCatalog
    /// Files whose current bytes do not parse; each still serves its last good table.
    public let errors: [ResourceParseError]
    /// The number of resource files known.
    public let fileCount: Int
}
