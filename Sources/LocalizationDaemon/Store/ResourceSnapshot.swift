package import LocalizationCore

/// One complete, immutable version of everything the daemon serves.
///
/// Readers take a snapshot and use it for a whole request; a reload builds the next one
/// and swaps it in at once, so a reader sees the old tables or the new, never a mix.
///
/// A class: every request takes the current snapshot, and taking a reference is one retain,
/// where copying the segment set's fields is several.
package final class ResourceSnapshot: Sendable {
    /// Increases by one with every reload that changed something; starts at 1.
    package let generation: UInt64
    /// The compiled segments of every (language, table): what lookups answer from.
    package let segments: SegmentSet
    /// Files whose current bytes do not parse, each still serving its last good table, and
    /// segments that could not be built (named `language/table`), each serving its last.
    package let errors: [ResourceParseError]
    /// The number of resource files known.
    package let fileCount: Int

    /// Creates a snapshot.
    package init(
        generation: UInt64, segments: SegmentSet, errors: [ResourceParseError], fileCount: Int
    ) {
        self.generation = generation
        self.segments = segments
        self.errors = errors
        self.fileCount = fileCount
    }
}
