import Glibc

/// What one thread remembers of one ``Localizer`` between lookups: the plan for the
/// localizer's current epoch and the resolved tables it has used, so a cached-mode lookup
/// takes no lock and touches no shared cache line but the epoch.
///
/// One per thread (a `pthread` key), for the localizer used last: a thread that alternates
/// between two localizers rebuilds it at each switch, which is correct, only slower.
final class ThreadLookupCache {
    /// The serial number of the localizer this belongs to.
    var owner: UInt64 = 0
    /// The localizer's epoch this was filled at; any other epoch empties it.
    var epoch: UInt64 = 0
    var plan: LookupPlan = .keys
    /// The backend when the plan is ``LookupPlan/cached(_:)``: the hot path's one test.
    var cachedBackend: DaemonBackend?
    /// Tables by ``LanguageList/cacheKey(table:)``.
    var tables: [String: ResolvedTable] = [:]

    /// The most tables a thread keeps; past it, it starts over.
    static let capacity = 256

    func reset(owner: UInt64, epoch: UInt64, plan: LookupPlan) {
        self.owner = owner
        self.epoch = epoch
        self.plan = plan
        if case .cached(let backend) = plan { cachedBackend = backend } else { cachedBackend = nil }
        tables.removeAll(keepingCapacity: true)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ThreadLookupCache>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// The calling thread's cache, created on first use and released when the thread ends.
    static var current: ThreadLookupCache {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadLookupCache>.fromOpaque(pointer).takeUnretainedValue()
        }
        let cache = ThreadLookupCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }
}
