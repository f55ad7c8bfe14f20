import LocalizationCore
import LocalizationSockets
import LocalizationWire

/// One generation of the daemon's segments, mapped read-only from the slabs a `map` reply
/// carried (docs/PROTOCOL.md): mapped mode's lookups read them in place, through the one
/// lookup over segments (``SegmentSet/lookup(_:in:chain:plural:)``).
///
/// A class, so each lookup holds the generation it reads: when a `changed` event replaces it,
/// a slab no newer generation shares is unmapped once the last lookup (or thread cache)
/// using it lets go. A new generation shares the mappings of the slabs an earlier one still
/// holds (the connection's reader maps only the slabs new to it), so the pages of unchanged
/// segments stay mapped and faulted in across an edit.
final class MappedSegments: Sendable {
    /// The generation the daemon served.
    let generation: UInt64
    /// The segments, over the mapped slabs.
    let set: SegmentSet
    /// The chains of the preference lists looked up, built with the languages this set has.
    private let chains = FallbackChainCache<[LanguageTag]>()

    /// The set `manifest` describes over `mappings`, the reply's descriptors mapped in order.
    ///
    /// - Throws: ``SegmentError`` for a segment that is not where and what the manifest says.
    init(_ manifest: SegmentManifest, mappings: [SealedMemoryMapping]) throws(SegmentError) {
        set = try manifest.segmentSet(over: mappings.map { SegmentSlab(mapping: $0) })
        generation = manifest.generation
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
    /// every daemon mode, the result carries no ``TableEntry`` (``Localizer/lookup(_:languages:table:count:)``).
    func lookup(_ key: String, tags: [LanguageTag], table: String, plural: PluralCounts) -> LookupResult {
        guard let found = try? probe(tags, table: table).lookup(key, plural: plural), found.found else {
            return .missing(key)
        }
        return LookupResult(value: found.value, found: true, language: found.language, entry: nil)
    }
}
