/// A segment that could not be built, named by its language and table.
package struct SegmentBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The segment's language identifier and table name.
    package var language: String
    package var table: String
    /// Why.
    package var error: SegmentError

    /// The error in words, naming the segment.
    package var description: String { "\(language)/\(table): \(error)" }
}

extension SegmentSet {
    /// Builds a segment for every (language, table) that `sources` give, with the
    /// precedence of ``ResourceCatalog/init(developmentLanguage:resources:)``: earlier roots
    /// win over later ones; within a root, `.stringsdict` over `.strings` over String
    /// Catalog. A (language, table) that some file names has a segment even when it has no
    /// keys, as the catalog then has an empty table.
    ///
    /// - Throws: ``SegmentBuildError`` naming the first segment that could not be built.
    package init(
        developmentLanguage: LanguageTag, sources: [(file: ResourceFile, content: SegmentSource)]
    ) throws(SegmentBuildError) {
        let (set, failures) = Self.build(developmentLanguage: developmentLanguage, sources: sources)
        if let failure = failures.first { throw failure }
        self = set
    }

    /// Builds what ``init(developmentLanguage:sources:)`` builds, each segment that cannot
    /// be built (no memory, past the format's limits) left out of the set and named.
    package static func build(
        developmentLanguage: LanguageTag, sources: [(file: ResourceFile, content: SegmentSource)]
    ) -> (set: SegmentSet, failures: [SegmentBuildError]) {
        var set = SegmentSet(developmentLanguage: developmentLanguage)
        var failures: [SegmentBuildError] = []
        for (key, pieces) in pieces(of: sources) {
            do throws(SegmentError) {
                let segment = try Segment(SegmentPlan(language: key.language, table: key.table, pieces: pieces))
                set = set.replacing(segment, language: key.language, table: key.table)
            } catch {
                failures.append(SegmentBuildError(language: key.language, table: key.table, error: error))
            }
        }
        set = set.replacingSourceLanguages(
            ResourceCatalog.sourceLanguages(ofWritten: sources.map { ($0.file, $0.content.catalogSourceLanguage) }))
        return (set, failures)
    }

    /// The pieces of each (language, table) among `sources`, lowest precedence first: what
    /// a ``SegmentPlan`` lays over one another. Whoever rebuilds one (language, table)
    /// after an edit passes only the files of that table.
    package static func pieces(of sources: [(file: ResourceFile, content: SegmentSource)]) -> [SegmentKey:
        [SegmentPiece]]
    {
        var result: [SegmentKey: [SegmentPiece]] = [:]
        // Of two sibling folders of one language (`en_GB.lproj` beside `en-GB.lproj`), one
        // serves the table whole, as in the catalog.
        let served = ResourceCatalog.droppingOutrankedFolders(sources) { $0.file }
        for (file, content) in served.sorted(by: { ResourceCatalog.precedes($0.file, $1.file) }) {
            for (language, piece) in content.pieces(of: file) {
                result[SegmentKey(language: language, table: file.table), default: []].append(piece)
            }
        }
        return result
    }
}

/// A (language identifier, table name) pair: what one segment holds.
package struct SegmentKey: Hashable, Sendable {
    package var language: String
    package var table: String

    /// The pair.
    package init(language: String, table: String) {
        self.language = language
        self.table = table
    }
}
