import Synchronization

/// Fallback chains already built, by the preferences they were built for: a chain costs a
/// few microseconds to build (its expansions, a set of the tags seen), more than the lookup
/// that follows it, and a program asks for the same few preference lists again and again.
///
/// Bounded: emptied when it holds ``capacity`` chains. A chain depends only on its
/// preferences and the development language, so a cache belongs to one development
/// language: the daemon's service keeps one, and each ``ResourceSet`` its own, replaced with
/// the set when the files are read again.
///
/// ```swift
/// let chains = FallbackChainCache<[LanguageTag]>()
/// let chain = chains.chain(for: tags) { catalog.chain(tags) }
/// ```
package final class FallbackChainCache<Preferences: Hashable & Sendable>: Sendable {
    /// The most distinct preference lists whose chains are kept; past it the cache restarts.
    package static var capacity: Int { 1024 }

    private let chains = Mutex<[Preferences: FallbackChain]>([:])

    /// An empty cache.
    package init() {}

    /// The chain kept for `preferences`, else the one `make` builds, kept.
    package func chain<Failure: Error>(
        for preferences: Preferences, orMake make: () throws(Failure) -> FallbackChain
    ) throws(Failure) -> FallbackChain {
        if let kept = chains.withLock({ $0[preferences] }) { return kept }
        let chain = try make()
        chains.withLock { chains in
            if chains.count >= Self.capacity { chains.removeAll(keepingCapacity: true) }
            chains[preferences] = chain
        }
        return chain
    }
}
