import LocalizationCore
import LocalizationWire

extension LookupService {
    /// The `chain` reply (protocol 1.7): the languages a lookup of `table` for `languages`
    /// probes in the current generation, in order — the very list the daemon's own lookups
    /// walk (``SegmentSet/probe(_:chain:)``) — so a client that maps the segments answers
    /// those lookups in place exactly as the daemon would, with no copy of the CLDR data
    /// the chain is built from. By candidate, `fallback` says whether an answer from it is
    /// one the missing-key report lists (not one of the first preference's own spellings)
    /// and `pseudo` whether it is a pseudo-language, whose answer when its own segment lacks
    /// the key the daemon derives from the development language's.
    ///
    /// The chain depends on the languages the generation serves: it holds for `generation`
    /// (the reply's) alone.
    func chainFields(languages: [String], table: String?) throws(WireError) -> [String: WireValue] {
        let snapshot = store.snapshot
        let chain = try chain(languages, in: snapshot)
        let candidates = snapshot.segments.candidates(ResourceCatalog.tableName(table), chain: chain)
        return [
            "generation": .integer(Int64(snapshot.generation)),
            "table": .string(ResourceCatalog.tableName(table)),
            "languages": .array(candidates.identifiers.map(WireValue.string)),
            "fallback": .array(candidates.languages.map { .bool(chain.untranslatedLanguage(servedBy: $0) != nil) }),
            "pseudo": .array(candidates.identifiers.map { .bool(PseudoLocalization(rawValue: $0) != nil) }),
        ]
    }
}
