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
        let pieces = pieces(of: sources)
        let (set, _, failures) = SegmentSet(developmentLanguage: developmentLanguage).rebuilding(
            Set(pieces.keys), pieces: pieces)
        return (
            set.replacingSourceLanguages(
                ResourceCatalog.sourceLanguages(ofWritten: sources.map { ($0.file, $0.content.catalogSourceLanguage) })),
            failures
        )
    }

    /// This set with the segments of `keys` built anew from `sources` — every file of
    /// those keys' tables, in any order — and every other segment kept as it is: what a
    /// reload does after the files of some (language, table) pairs changed.
    ///
    /// A key that no source gives any more is removed. A rebuilt segment that holds the
    /// same bytes as the one it would replace (its body checksum and length equal) is not
    /// a change: the old segment stays, so that whoever mapped it keeps its pages. A key
    /// whose segment cannot be built keeps its last segment, and is named in `failures`.
    /// The new segments share one slab; when the set's segments then lie in too many slabs,
    /// or in slabs mostly freed, they are gathered (``compacted(makingSlab:maxSlabs:)``).
    /// The catalog source languages are the caller's to keep current
    /// (``replacingSourceLanguages(_:)``), from every String Catalog.
    package func rebuilding(
        _ keys: Set<SegmentKey>, from sources: [(file: ResourceFile, content: SegmentSource)]
    ) -> (set: SegmentSet, changed: Set<SegmentKey>, failures: [SegmentBuildError]) {
        rebuilding(keys, pieces: Self.pieces(of: sources))
    }

    /// ``rebuilding(_:from:)`` with each key's pieces gathered.
    private func rebuilding(_ keys: Set<SegmentKey>, pieces: [SegmentKey: [SegmentPiece]]) -> (
        set: SegmentSet, changed: Set<SegmentKey>, failures: [SegmentBuildError]
    ) {
        var set = self
        var changed = Set<SegmentKey>()
        var failures: [SegmentBuildError] = []
        var plans: [SegmentPlan] = []
        for key in keys.sorted(by: { ($0.table, $0.language) < ($1.table, $1.language) }) {
            guard let keyPieces = pieces[key] else {
                if segment(language: key.language, table: key.table) != nil {
                    set = set.replacing(nil, language: key.language, table: key.table)
                    changed.insert(key)
                }
                continue
            }
            do throws(SegmentError) {
                plans.append(try SegmentPlan(language: key.language, table: key.table, pieces: keyPieces))
            } catch {
                failures.append(SegmentBuildError(language: key.language, table: key.table, error: error))
            }
        }
        for (plan, built) in zip(plans, Segment.build(plans)) {
            switch built {
            case .success(let segment):
                let old = self.segment(language: plan.language, table: plan.table)
                if let old, old.bytes.count == segment.bytes.count, old.bodyChecksum == segment.bodyChecksum {
                    continue
                }
                set = set.replacing(segment, language: plan.language, table: plan.table)
                changed.insert(SegmentKey(language: plan.language, table: plan.table))
            case .failure(let error):
                failures.append(SegmentBuildError(language: plan.language, table: plan.table, error: error))
            }
        }
        // Bounded fragmentation: each reload builds a slab, and replaced segments leave holes.
        return (set.compacted(), changed, failures)
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
