package import LocalizationCore

/// One complete, immutable version of everything the daemon serves.
///
/// Readers take a snapshot and use it for a whole request; a reload builds the next one
/// and swaps it in at once, so a reader sees the old tables or the new, never a mix.
///
/// A class: every request takes the current snapshot, and taking a reference is one retain,
/// where copying the catalog's fields was a dozen.
package final class ResourceSnapshot: Sendable {
    /// Increases by one with every reload that changed something; starts at 1.
    package let generation: UInt64
    /// The assembled tables.
    package let catalog: ResourceCatalog
    /// The compiled segments of every (language, table): what lookups answer from.
    package let segments: SegmentSet
    /// Files whose current bytes do not parse, each still serving its last good table, and
    /// segments that could not be built (named `language/table`), each serving its last.
    package let errors: [ResourceParseError]
    /// The number of resource files known.
    package let fileCount: Int

    /// Creates a snapshot.
    package init(
        generation: UInt64, catalog: ResourceCatalog, segments: SegmentSet, errors: [ResourceParseError], fileCount: Int
    ) {
        self.generation = generation
        self.catalog = catalog
        self.segments = segments
        self.errors = errors
        self.fileCount = fileCount
    }
}
