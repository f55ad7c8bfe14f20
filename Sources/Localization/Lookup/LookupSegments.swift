import LocalizationCore
import LocalizationSockets
import LocalizationWire

/// One generation of segments a ``Localizer`` looks up in: the daemon's, mapped read-only
/// from the slabs a `map` reply carried (docs/PROTOCOL.md), or the resource files compiled
/// into private segments in this process (embedded mode, and a daemon mode's fallback to
/// the files) by the builder the daemon uses. Both are read through the one lookup over
/// segments (``SegmentProbe/lookup(_:plural:)``), so every mode gives the daemon's answers.
///
/// A class, so each lookup holds the generation it reads: when a `changed` event replaces a
/// mapped one, a slab no newer generation shares is unmapped once the last lookup (or thread
/// cache) using it lets go. A new generation shares the mappings of the slabs an earlier one
/// still holds (the connection's reader maps only the slabs new to it), so the pages of
/// unchanged segments stay mapped and faulted in across an edit.
final class LookupSegments: Sendable {
    /// The generation the daemon served (0 for segments compiled in this process).
    let generation: UInt64
    /// The segments, over the mapped slabs or this process's own.
    let set: SegmentSet
    /// Whether the segments were compiled in this process from the files: their answers
    /// carry the whole ``TableEntry``, as embedded mode's always have.
    let isPrivate: Bool
    /// The chains of the preference lists looked up, built with the languages this set has.
    private let chains = FallbackChainCache<[LanguageTag]>()

    /// The set `manifest` describes over `mappings`, the reply's descriptors mapped in order.
    ///
    /// - Throws: ``SegmentError`` for a segment that is not where and what the manifest says.
    init(_ manifest: SegmentManifest, mappings: [SealedMemoryMapping]) throws(SegmentError) {
        set = try manifest.segmentSet(over: mappings.map { SegmentSlab(mapping: $0) })
        generation = manifest.generation
        isPrivate = false
    }

    /// The segments of `resources`, compiled in this process; the parsed files are not kept.
    init(compiled resources: ResourceSet) {
        set = resources.segments
        generation = 0
        isPrivate = true
    }

    /// The chain lookups for `tags` walk.
    func chain(_ tags: [LanguageTag]) -> FallbackChain {
        chains.chain(for: tags) { set.chain(tags) }
    }

    /// The segments a lookup of `table` for `tags` probes.
    func probe(_ tags: [LanguageTag], table: String) -> SegmentProbe {
        set.probe(table, chain: chain(tags))
    }

    /// `key` looked up for `tags` in `table`, plural forms selected as `plural` says; a
    /// damaged segment (which the checks at mapping would have refused) is a miss. As in
    /// every daemon mode, a mapped generation's result carries no ``TableEntry``
    /// (``Localizer/lookup(_:languages:table:count:)``); private segments' results do.
    func lookup(_ key: String, tags: [LanguageTag], table: String, plural: PluralCounts) -> LookupResult {
        guard let found = try? probe(tags, table: table).lookup(key, plural: plural), found.found else {
            return .missing(key)
        }
        if isPrivate { return found }
        return LookupResult(value: found.value, found: true, language: found.language, entry: nil)
    }

    /// The table names some language has a segment of, sorted.
    var tableNames: [String] { self.set.segments.keys.sorted() }
}
