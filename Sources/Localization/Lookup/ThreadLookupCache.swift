import Glibc
import LocalizationCore

/// What one thread remembers of one ``Localizer`` between lookups: for the localizer's
/// current epoch, which segments answer (the daemon's mapped generation, or the files'
/// private segments) and where in them the table it read last lies, so a lookup takes no
/// lock and touches no shared cache line but the epoch.
///
/// One per thread (a `pthread` key), for the localizer used last: a thread that alternates
/// between two localizers rebuilds it at each switch, which is correct, only slower.
///
/// A struct reached through a pointer rather than a class: a class's stored properties are
/// checked for exclusive access at run time on every read, and the hot path reads several.
struct ThreadLookupCache {
    /// Which tables a lookup wants, as the caller named them.
    struct TableName: Hashable {
        var languages: LanguageList
        var table: String?
    }

    /// The serial number of the localizer this belongs to.
    var owner: UInt64 = 0
    /// The localizer's epoch this was filled at; any other epoch empties it.
    var epoch: UInt64 = 0
    /// The daemon when the epoch's route is ``LookupRoute/mapped(_:)``, else `nil`.
    var mappedDaemon: DaemonLookups?
    /// The files' private segments when the epoch's route is ``LookupRoute/files(_:)``, else `nil`.
    var files: LookupSegments?
    /// The name of the table the last mapped lookup read: a thread mostly asks one table
    /// again and again, and comparing two short strings is cheaper than hashing a name.
    var lastName = Self.noTable
    /// The segments the last table read probes in the mapped generation. It holds them —
    /// keeps their slabs mapped — until this thread's next lookup after the epoch moved (any
    /// lookup: `localized`, `lookup`, of any localizer), or the thread's end. So a thread that
    /// stops looking up keeps the one generation's segments it read last, and no more: a
    /// process maps at most its current generation plus one older per such thread. (Letting
    /// go from another thread would need every lookup to announce itself, which costs the hot
    /// path more than the rare pinned generation does.)
    private(set) var lastProbe: SegmentProbe?
    /// The reader of `lastProbe`'s first segment, kept apart for the hot path: a struct over
    /// the mapped bytes, so reading it through the cache's pointer counts no reference.
    private(set) var lastFirst: SegmentReader?
    /// The values mapped lookups made from ``lastFirst``'s segment, emptied when it changes.
    var mappedValues = MappedValueCache()
    /// The name ``lastName`` has while no table was read. Any name would do: with no place,
    /// a lookup that matches it takes the slow path.
    static let noTable = TableName(languages: .many([]), table: nil)

    /// Whether the last table read was the one `languages` and `table` name, for this
    /// localizer at this epoch.
    @inline(__always)
    func lastTableIs(_ languages: LanguageList, _ table: String?, owner: UInt64, epoch: UInt64) -> Bool {
        self.owner == owner && self.epoch == epoch && lastName.languages == languages && lastName.table == table
    }

    mutating func reset(owner: UInt64, epoch: UInt64, route: LookupRoute) {
        self.owner = owner
        self.epoch = epoch
        mappedDaemon = nil
        files = nil
        switch route {
        case .mapped(let daemon): mappedDaemon = daemon
        case .files(let segments): files = segments
        case .direct, .lastKnown, .keys: break
        }
        lastName = Self.noTable
        setPlace(nil)
    }

    /// Lets go of the mapped generation this cache holds for `owner` when it is from an epoch
    /// other than `epoch`; the next lookup starts over.
    mutating func releaseOutdated(owner: UInt64, epoch: UInt64) {
        guard self.owner == owner, self.epoch != epoch, lastProbe != nil || mappedDaemon != nil || files != nil
        else { return }
        lastName = Self.noTable
        mappedDaemon = nil
        files = nil
        setPlace(nil)
    }

    /// Makes `probe`, in the mapped generation, the one the hot path reads.
    mutating func remember(_ probe: SegmentProbe, as name: TableName) {
        lastName = name
        setPlace(probe)
    }

    /// Sets ``lastProbe`` and ``lastFirst``; ``mappedValues`` hold entry numbers of the
    /// first segment read until now, so they go when it changes (or is let go).
    private mutating func setPlace(_ probe: SegmentProbe?) {
        if probe?.first !== lastProbe?.first { mappedValues.removeAll() }
        lastProbe = probe
        lastFirst = probe?.first?.reader
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let cache = pointer.assumingMemoryBound(to: ThreadLookupCache.self)
            cache.pointee.mappedValues.deallocate()
            cache.deinitialize(count: 1)
            cache.deallocate()
        }
        return key
    }()

    /// The calling thread's cache, created on first use and freed when the thread ends.
    /// Only this thread may use it, and not after it ends.
    static var current: UnsafeMutablePointer<ThreadLookupCache> {
        if let pointer = pthread_getspecific(key) {
            return pointer.assumingMemoryBound(to: ThreadLookupCache.self)
        }
        let cache = UnsafeMutablePointer<ThreadLookupCache>.allocate(capacity: 1)
        cache.initialize(to: ThreadLookupCache())
        pthread_setspecific(key, cache)
        return cache
    }
}
