import Foundation
import LocalizationCore
import LocalizationWire
import Synchronization

/// Where `localized` gets its strings: `l10nd` (mapped, cached or direct mode) or the resource
/// files read in the process (embedded mode). The rules are in `docs/CLIENT.md`.
///
/// ``shared`` reads its configuration from the environment, and explicit calls override it:
///
/// - `L10N_MODE=embedded|mapped|cached|direct` picks the mode; without it, a non-empty
///   `L10N_SOCKET` means mapped mode and anything else embedded mode.
/// - In a daemon mode the socket is ``useDaemon(socketPath:mode:timeout:)``'s path, else
///   `L10N_SOCKET`, else the daemon's default path.
/// - Resource directories (``useResources(at:developmentLanguage:)``, else
///   `L10N_RESOURCES`) are what embedded mode reads, and a daemon mode's fallback.
///
/// When the daemon is unreachable, lookups are answered from the files if resources are
/// configured, else from the last tables or answers the daemon gave, else with the key
/// itself; each change of source is logged once. The daemon is reconnected to in the
/// background and used again as soon as it answers.
///
/// ```swift
/// Localizer.shared.useResources(at: ["/usr/share/myapp/Resources"])   // files
/// Localizer.shared.useDaemon()                                       // l10nd, mapped
/// let observation = Localizer.shared.onChange { change in redraw() }
/// ```
public final class Localizer: Sendable {
    /// The instance `localized` uses.
    public static let shared = Localizer(environment: ProcessInfo.processInfo.environment)

    private struct State {
        var roots: [String]
        var developmentLanguage: LanguageTag
        var resources: ResourceSet?
        /// Bumped whenever `resources` is dropped: a read of the files begun before is not kept.
        var resourcesVersion: UInt64 = 0
        /// The read of the files in progress, in the background, for `resourcesVersion`: one
        /// read for every thread that needs them, each waiting for it at most its time limit.
        var resourceRead: BackgroundFetch<ResourceSet>?
        var daemon: DaemonLookups?
        var daemonSerial: UInt64 = 0
        /// The source last logged, so each change is logged once.
        var source: LookupSource?
    }

    private static let serials = Atomic<UInt64>(1)

    private let state: Mutex<State>
    /// Told apart from other localizers by the per-thread caches.
    private let serial: UInt64
    /// Bumped whenever the answer to any lookup may change: threads then drop what they
    /// remember and read the shared state again.
    private let epoch = Atomic<UInt64>(1)
    private let observers = ChangeObservers()
    /// Whether resources or a daemon are configured (else every lookup returns its key):
    /// read without the lock on every `String(localized:)` (``isConfigured``), set under it.
    private let configured = Atomic<Bool>(false)
    private let log: @Sendable (String) -> Void
    /// The preferred languages of the process environment, read once.
    let environmentLanguages: [String]

    /// Creates a localizer configured from `environment`: `L10N_MODE`, `L10N_SOCKET`,
    /// `L10N_TIMEOUT` (seconds per daemon request, default 1), `L10N_RESOURCES`,
    /// `L10N_DEVELOPMENT_LANGUAGE`, and the gettext locale variables.
    ///
    /// - Parameter log: where the one-line notices about the source go; standard error by default.
    public init(environment: [String: String], log: (@Sendable (String) -> Void)? = nil) {
        let roots = (environment["L10N_RESOURCES"] ?? "").split(separator: ":").map(String.init)
        let development = environment["L10N_DEVELOPMENT_LANGUAGE"].flatMap { try? LanguageTag($0) }
        state = Mutex(State(roots: roots, developmentLanguage: development ?? LanguageTag(language: "en")))
        configured.store(!roots.isEmpty, ordering: .releasing)
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        environmentLanguages = PreferredLanguages.from(environment: environment).map(\.identifier)
        self.log = log ?? { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        let socket = environment["L10N_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let mode = environment["L10N_MODE"].flatMap(LookupMode.init(rawValue:)) ?? (socket == nil ? .embedded : .mapped)
        if mode != .embedded {
            useDaemon(socketPath: socket, mode: mode, timeout: environment["L10N_TIMEOUT"].flatMap(Double.init) ?? 1)
        }
        warnAboutMissing(roots)
    }

    deinit {
        state.withLock { $0.daemon }?.close()
    }

    // MARK: Configuration

    /// Reads the files under `roots` (earlier roots win) on first use: in embedded mode
    /// they answer every lookup, in a daemon mode they are the fallback.
    ///
    /// A root that does not exist is logged at once, one line each; one that holds no
    /// language (no `xx.lproj`, no `.xcstrings`) when the files are first read.
    public func useResources(at roots: [String], developmentLanguage: String = "en") {
        warnAboutMissing(roots)
        let development = (try? LanguageTag(developmentLanguage)) ?? LanguageTag(language: "en")
        state.withLock { state in
            state.roots = roots
            state.developmentLanguage = development
            state.resources = nil
            state.resourcesVersion += 1
            state.resourceRead = nil
            noteConfiguration(state)
        }
        invalidate()
    }

    /// Asks `l10nd` from now on, at `socketPath` (else `L10N_SOCKET`, else the default
    /// path), in `mode` (`.mapped`, the default, `.cached` or `.direct`; `.embedded` is ``useEmbedded()``),
    /// with `timeout` seconds per request. Returns once the first connection attempt is over.
    public func useDaemon(socketPath: String? = nil, mode: LookupMode = .mapped, timeout: Double = 1) {
        guard mode != .embedded else { return useEmbedded() }
        let serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        let development = state.withLock { $0.developmentLanguage }
        let daemon = DaemonLookups(
            socketPath: socketPath, mode: mode, timeout: timeout, developmentLanguage: development,
            onEvent: { [weak self] event in self?.handle(event, from: serial) },
            onMapped: { [weak self] in self?.handleMapped(from: serial) })
        let old = state.withLock { state in
            defer {
                state.daemon = daemon
                state.daemonSerial = serial
                noteConfiguration(state)
            }
            return state.daemon
        }
        old?.close()
        invalidate()
        noteSource(reason: nil)
    }

    /// Stops asking the daemon: lookups read the files (or return keys without any).
    public func useEmbedded() {
        let old = state.withLock { state in
            defer {
                state.daemon = nil
                state.daemonSerial = 0
                noteConfiguration(state)
            }
            return state.daemon
        }
        old?.close()
        invalidate()
    }

    /// The mode chosen by the environment or the last `use…` call.
    public var mode: LookupMode { state.withLock { $0.daemon?.mode ?? .embedded } }

    /// The state of the link to the daemon, as an app's "offline" indicator wants it:
    /// `daemon` while a connection is up and the daemon answers — it has said something (any
    /// reply, any event) since the oldest request a lookup waited for in vain was sent, so a
    /// daemon busy with one slow table is answering, and one stopped is not. Otherwise the
    /// fallback: `files` when resources are configured, else `lastKnown` once the daemon was
    /// ever reached, else `keys`. Never waits: it reads no file and asks the daemon nothing
    /// (a daemon not answering is asked something small in the background, so that `source`
    /// says `daemon` again as soon as it answers). ``lookupWithSource(_:languages:table:count:)``
    /// says what answered one call; `docs/CLIENT.md` says where the two differ.
    public var source: LookupSource {
        let current = currentSource()
        if current == .daemon, let daemon = state.withLock({ $0.daemon }), !daemon.isAnswering {
            daemon.probe()
            return fallbackSource()
        }
        return current
    }

    /// Whether resources or a daemon are configured: when not, ``source`` is `keys`.
    var isConfigured: Bool { configured.load(ordering: .acquiring) }

    /// The languages the current source serves: the resource files' (embedded mode, or a
    /// daemon mode's fallback), else the daemon's (one `languages` request), else none.
    public var servedLanguages: [LanguageTag] {
        switch route() {
        case .files(let resources): resources.catalog.languages
        case .mapped(let daemon), .cached(let daemon), .direct(let daemon): daemon.languages() ?? []
        case .lastKnown, .keys: []
        }
    }

    /// The tags among `languages` (tags or `Accept-Language` lists, as lookups take them)
    /// that no served language matches, not even through the fallback rules — a misspelling
    /// such as `jp` for `ja`, whose lookups quietly fall back to `Base` and the development
    /// language. Empty when every tag matches or nothing is served at all.
    ///
    /// ```swift
    /// localizer.unmatchedLanguages(["jp", "de"])   // ["jp"] when there is a ja.lproj and a de.lproj
    /// ```
    public func unmatchedLanguages(_ languages: [String]) -> [String] {
        let available = servedLanguages
        let served = Set(available)
        guard !served.isEmpty else { return [] }
        return languages.filter { language in
            let tags = (try? LanguageTag.preferences(language)) ?? []
            return !tags.contains { tag in
                tag.isBase
                    || FallbackChain.matchingFolders(
                        for: tag, expansion: FallbackChain.expansion(of: tag), available: available
                    ).contains { served.contains($0) }
            }
        }
    }

    /// The daemon link of a daemon mode, connected or not.
    var daemon: DaemonLookups? { state.withLock { $0.daemon } }

    /// Drops what was loaded or cached, so the next lookup reads the files or asks the
    /// daemon again.
    public func reload() {
        let daemon = state.withLock { state in
            state.resources = nil
            state.resourcesVersion += 1
            state.resourceRead = nil
            return state.daemon
        }
        daemon?.cache.reset()
        daemon?.mapped.reset()
        invalidate()
    }

    // MARK: Lookups

    /// Looks `key` up for `languages` (preferred first; tags that do not parse are skipped)
    /// in `table` (`nil` means `Localizable`); `count` selects a plural form.
    ///
    /// In embedded mode the result carries the whole ``TableEntry``; in the daemon modes
    /// `entry` is `nil` and, with a `count`, the daemon is asked directly (the cached
    /// tables hold values, not plural variants).
    public func lookup(_ key: String, languages: [String], table: String? = nil, count: Int? = nil) -> LookupResult {
        lookupWithSource(key, languages: languages, table: table, count: count).result
    }

    /// ``lookup(_:languages:table:count:)`` with a decimal count, e.g. `PluralOperands(1.5)`
    /// or `PluralOperands("1.50")!` (visible fraction digits matter to CLDR's rules); the
    /// daemon modes send it to the daemon as a decimal.
    public func lookup(_ key: String, languages: [String], table: String? = nil, count: PluralOperands) -> LookupResult
    {
        lookupWithSource(key, languages: languages, table: table, count: count).result
    }

    /// Looks `key` up with one count per format argument, as `String.localizedStringWithFormat`
    /// selects: `counts[n - 1]` is argument `n`'s number (`nil` for an argument that is not
    /// a number), and each plural variable (`%#@files@`, `%2$#@folders@`, a String Catalog
    /// substitution's `argNum`) takes its form from its own argument's count; a variable
    /// without one takes `other`.
    ///
    /// In the daemon modes the daemon selects (protocol 1.3's `counts`; one round trip in
    /// cached mode too, whose tables hold values, not plural variants). A daemon older
    /// than 1.3 is sent the first count for every variable instead.
    ///
    /// ```swift
    /// localizer.lookup("%d files in %d folders", languages: ["fr"], counts: [PluralOperands(3), PluralOperands(1)])
    ///     .value   // "%1$d fichiers dans %2$d dossier"
    /// ```
    public func lookup(_ key: String, languages: [String], table: String? = nil, counts: [PluralOperands?])
        -> LookupResult
    {
        lookupWithSource(key, languages: languages, table: table, counts: counts).result
    }

    /// ``lookup(_:languages:table:count:)``, and which source answered it.
    public func lookupWithSource(
        _ key: String, languages: [String], table: String? = nil, count: Int? = nil
    ) -> (result: LookupResult, source: LookupSource) {
        lookupWithSource(
            key, languages: languages, table: table, plural: PluralCounts(count.map(PluralOperands.init)))
    }

    /// ``lookup(_:languages:table:count:)`` with a decimal count, and which source
    /// answered it.
    public func lookupWithSource(
        _ key: String, languages: [String], table: String? = nil, count: PluralOperands
    ) -> (result: LookupResult, source: LookupSource) {
        lookupWithSource(key, languages: languages, table: table, plural: .count(count))
    }

    /// ``lookup(_:languages:table:counts:)``, and which source answered it.
    public func lookupWithSource(
        _ key: String, languages: [String], table: String? = nil, counts: [PluralOperands?]
    ) -> (result: LookupResult, source: LookupSource) {
        lookupWithSource(key, languages: languages, table: table, plural: .counts(counts))
    }

    /// `key` looked up with its plural forms selected by `plural`, and which source answered it.
    package func lookupWithSource(
        _ key: String, languages: [String], table: String?, plural: PluralCounts
    ) -> (result: LookupResult, source: LookupSource) {
        // A generation this thread's cache holds from an earlier epoch is let go now, not at
        // its next `localized`: it may never come.
        ThreadLookupCache.current.pointee.releaseOutdated(owner: serial, epoch: epoch.load(ordering: .acquiring))
        let tags = LanguageTag.preferences(languages)
        let identifiers = tags.map(\.identifier)
        let tableName = ResourceCatalog.tableName(table)
        let current = route()
        switch current {
        case .mapped(let daemon):
            // One language, compiled by the daemon: answered in place, plural forms included.
            guard identifiers.count == 1 else {
                return cachedLookup(key, tags: tags, table: tableName, plural: plural, daemon: daemon)
            }
            let started = DispatchTime.now()
            if let place = daemon.mappedTables()?.place(language: identifiers[0], table: tableName) {
                let result = place.result(key, plural: plural)
                if !result.found || daemon.isFallback(result, for: tags) {
                    daemon.misses.record(key, in: ResolvedTable.Key(languages: identifiers, table: tableName))
                }
                return (result, .daemon)
            }
            return cachedLookup(
                key, tags: tags, table: tableName, plural: plural, daemon: daemon,
                timeLimit: daemon.timeLeft(since: started), since: started)
        case .cached(let daemon):
            return cachedLookup(key, tags: tags, table: tableName, plural: plural, daemon: daemon)
        case .direct(let daemon):
            let started = DispatchTime.now()
            if let result = daemon.lookup(key, languages: identifiers, table: tableName, plural: plural) {
                return (result, .daemon)
            }
            return offline(key, tags: tags, table: tableName, plural: plural, daemon: daemon, since: started)
        case .files(let resources):
            return (resources.lookup(key, languages: tags, table: table, plural: plural), .files)
        case .lastKnown(let daemon):
            return lastKnown(key, identifiers: identifiers, table: tableName, plural: plural, daemon: daemon)
        case .keys:
            return (.missing(key), .keys)
        }
    }

    /// A cached-mode lookup (also mapped mode's, for what the mapped tables do not hold, and
    /// while a generation is being mapped), each request within `timeLimit` seconds (default
    /// the client's), for a lookup that began at `started`.
    private func cachedLookup(
        _ key: String, tags: [LanguageTag], table tableName: String, plural: PluralCounts, daemon: DaemonLookups,
        timeLimit: Double? = nil, since started: DispatchTime = .now()
    ) -> (result: LookupResult, source: LookupSource) {
        let identifiers = tags.map(\.identifier)
        let tableKey = ResolvedTable.Key(languages: identifiers, table: tableName)
        var tableTimeLimit = timeLimit
        // The cached tables hold each entry's `other` forms: a count asks the daemon. When
        // that failed, the table is waited for only in what is left of the time limit.
        if plural != .none {
            let started = DispatchTime.now()
            if let result = daemon.lookup(
                key, languages: identifiers, table: tableName, plural: plural, timeLimit: timeLimit)
            {
                return (result, .daemon)
            }
            let waited = Double(DispatchTime.now().uptimeNanoseconds &- started.uptimeNanoseconds) / 1e9
            tableTimeLimit = (timeLimit ?? daemon.client.timeout) - waited
        }
        switch daemon.cachedAnswer(key, in: tableKey, timeLimit: tableTimeLimit, since: started) {
        case .table(let resolved):
            let result = DaemonLookups.result(key, in: resolved)
            // A miss, or a fallback's answer: the daemon lists both (it counts the batch the
            // reporter sends as it counts lookups, so the report is the same in every mode).
            if !result.found || resolved.untranslated.contains(key) { daemon.misses.record(key, in: tableKey) }
            return (result, .daemon)
        case .lookup(let result):
            // The daemon counted a miss itself.
            return (result, .daemon)
        case .none:
            return offline(key, tags: tags, table: tableName, plural: plural, daemon: daemon, since: started)
        }
    }

    /// The value `localized` returns. In cached mode, once this thread has read the table,
    /// it costs a thread-local read, the epoch, two short comparisons and one dictionary
    /// read: no lock, no allocation, no reference count on anything other threads share.
    /// In mapped mode the dictionary read is a probe of the mapped tables' key index, and a
    /// copy of the value unless this thread made it before (``MappedValueCache``).
    @usableFromInline
    func value(_ key: String, languages: LanguageList, table: String?) -> String {
        let local = ThreadLookupCache.current
        let epoch = self.epoch.load(ordering: .acquiring)
        if local.pointee.lastTableIs(languages, table, owner: serial, epoch: epoch) {
            // Mapped: the place's offsets alone, copied without touching a reference count
            // (the generation they read is held by the cache's `lastPlace`), and the values
            // this thread made before. Cached: the entries, read through the pointer, not
            // copied out.
            if let place = local.pointee.lastCompiled {
                if let value = local.pointee.mappedValues.value(key, in: place) { return value }
            } else if let value = local.pointee.lastEntries[key] {
                return value
            }
        }
        return valueSlowly(key, languages: languages, table: table, epoch: epoch, local: local)
    }

    /// ``value(_:languages:table:)`` when the thread's last table does not have the key:
    /// a new epoch, another table, a miss, or a mode other than cached.
    @inline(never)
    private func valueSlowly(
        _ key: String, languages: LanguageList, table: String?, epoch: UInt64,
        local: UnsafeMutablePointer<ThreadLookupCache>
    ) -> String {
        if local.pointee.owner != serial || local.pointee.epoch != epoch {
            local.pointee.reset(owner: serial, epoch: epoch, route: route())
        }
        guard let daemon = local.pointee.cachedDaemon else {
            return lookup(key, languages: languages.tags, table: table).value
        }
        let name = ThreadLookupCache.TableName(languages: languages, table: table)
        var timeLimit: Double?
        let started = DispatchTime.now()
        if local.pointee.mapsTables {
            let identifiers = LanguageTag.preferences(languages.tags).map(\.identifier)
            if identifiers.count == 1 {
                if let place = daemon.mappedTables()?.place(
                    language: identifiers[0], table: ResourceCatalog.tableName(table))
                {
                    local.pointee.remember(place, as: name)
                    if let value = place.value(key) { return value }
                    daemon.misses.record(
                        key, in: ResolvedTable.Key(languages: identifiers, table: ResourceCatalog.tableName(table)))
                    return key
                }
                // Not mapped yet: the cached way, in what is left of the time limit. The
                // mapped generation's arrival moves the epoch, and this thread to it.
                timeLimit = daemon.timeLeft(since: started)
            }
        }
        var resolved = local.pointee.tables[name]
        if resolved == nil {
            let tableKey = ResolvedTable.Key(
                languages: LanguageTag.preferences(languages.tags).map(\.identifier),
                table: ResourceCatalog.tableName(table))
            switch daemon.cachedAnswer(key, in: tableKey, timeLimit: timeLimit, since: started) {
            case .table(let fetched):
                resolved = fetched
                local.pointee.store(fetched, as: name)
            case .lookup(let result):
                // The table is on its way; the daemon counted a miss itself.
                return result.value
            case .none:
                break
            }
        }
        guard let resolved else {
            // The time limit is spent (a lookup would wait again): files, else last known.
            return offline(
                key, tags: LanguageTag.preferences(languages.tags), table: ResourceCatalog.tableName(table),
                plural: .none, daemon: daemon, since: started
            ).result.value
        }
        local.pointee.remember(resolved, as: name)
        if let value = resolved.entries[key] {
            // A fallback's answer (never on the hot path: ``ResolvedTable/translatedEntries``).
            if resolved.untranslated.contains(key) { daemon.misses.record(key, in: resolved.key) }
            return value
        }
        daemon.misses.record(key, in: resolved.key)
        return key
    }

    // MARK: Change notifications

    /// Calls `handler` after every change that may alter looked-up strings: a daemon
    /// reload (naming the tables), or a change of source. It runs on a queue of its own,
    /// after the new values are visible to lookups; it may look strings up.
    ///
    /// Embedded mode watches no files: it reports nothing (``reload()`` rereads them).
    public func onChange(_ handler: @escaping @Sendable (LocalizationChange) -> Void) -> ChangeObservation {
        observers.add(handler)
    }

    /// The changes ``onChange(_:)`` reports, as an async sequence; ends when the task
    /// iterating it is cancelled. Changes are buffered (the newest 64) while nobody reads.
    public func changes() -> AsyncStream<LocalizationChange> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let observation = observers.add { continuation.yield($0) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }

    // MARK: Internals

    /// Called under the state lock whenever roots or the daemon change.
    private func noteConfiguration(_ state: State) {
        configured.store(!state.roots.isEmpty || state.daemon != nil, ordering: .releasing)
    }

    private func invalidate() {
        epoch.wrappingAdd(1, ordering: .releasing)
    }

    /// The route for now, reading the files when they are what answers and not read yet: in
    /// a daemon mode waiting for them at most the time limit (then what the daemon said,
    /// while they are read in the background), in embedded mode until they are read.
    private func route() -> LookupRoute {
        let (route, daemon) = state.withLock { state -> (LookupRoute?, DaemonLookups?) in
            if let daemon = state.daemon, daemon.client.isConnected {
                switch daemon.mode {
                case .direct: return (.direct(daemon), daemon)
                case .mapped where daemon.mapsTables: return (.mapped(daemon), daemon)
                case .mapped, .cached, .embedded: return (.cached(daemon), daemon)
                }
            }
            if let resources = state.resources { return (.files(resources), state.daemon) }
            return (nil, state.daemon)
        }
        if let route { return route }
        let deadline = daemon.map { DispatchTime.now().uptimeNanoseconds &+ Self.nanoseconds($0.client.timeout) }
        if let resources = resources(waitingUntil: deadline, limit: daemon?.client.timeout) {
            return .files(resources)
        }
        guard let daemon, daemon.everConnected else { return .keys }
        return .lastKnown(daemon)
    }

    /// `seconds` in nanoseconds (none when negative).
    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

    /// Where lookups go now, as ``route()`` decides, but without reading the files: it runs
    /// on the process's connection thread (events), which must never wait for the disk —
    /// every client's replies wait behind it. Files not read yet are what will answer.
    private func currentSource() -> LookupSource {
        state.withLock { state in
            if let daemon = state.daemon, daemon.client.isConnected { return .daemon }
            return Self.fallbackSource(state)
        }
    }

    /// What answers when the daemon fails a lookup (``offline(_:tags:table:plural:daemon:)``),
    /// without reading the files.
    private func fallbackSource() -> LookupSource {
        state.withLock { Self.fallbackSource($0) }
    }

    /// The fallback of `state`: the files when configured, else what a daemon once reached
    /// said, else the keys.
    private static func fallbackSource(_ state: State) -> LookupSource {
        if state.resources != nil || ResourceRead(state) != nil { return .files }
        return state.daemon?.everConnected == true ? .lastKnown : .keys
    }

    /// The files to read for the configuration of one moment, outside the state lock.
    private struct ResourceRead {
        let roots: [String]
        let developmentLanguage: LanguageTag
        let version: UInt64

        /// `nil` when no roots are configured.
        init?(_ state: State) {
            guard !state.roots.isEmpty else { return nil }
            roots = state.roots
            developmentLanguage = state.developmentLanguage
            version = state.resourcesVersion
        }
    }

    /// The files, read in the background if they are not yet (one read for every thread:
    /// an outside tester saw 16 threads' first lookups take 16 s when each read them all),
    /// waited for until the uptime reaches `deadline` (nanoseconds; `nil`: until read) and no
    /// later than `limit` seconds after the read began: once it has outlasted a lookup's limit,
    /// the lookups after do not wait for it at all. `nil` without roots, or when they are not
    /// read by then.
    private func resources(waitingUntil deadline: UInt64?, limit: Double? = nil) -> ResourceSet? {
        while true {
            let next = state.withLock { state -> (ResourceSet?, BackgroundFetch<ResourceSet>?, ResourceRead?) in
                if let resources = state.resources { return (resources, nil, nil) }
                guard let read = ResourceRead(state) else { return (nil, nil, nil) }
                if let fetch = state.resourceRead { return (nil, fetch, nil) }
                let fetch = BackgroundFetch<ResourceSet>()
                state.resourceRead = fetch
                return (nil, fetch, read)
            }
            guard let fetch = next.1 else { return next.0 }
            if let read = next.2 {
                DispatchQueue.global(qos: .userInitiated).async { [self] in perform(read, for: fetch) }
            }
            var waitedUntil = UInt64.max
            if let deadline {
                waitedUntil = min(deadline, limit.map { fetch.started &+ Self.nanoseconds($0) } ?? .max)
                _ = fetch.wait(until: waitedUntil)
            } else {
                fetch.done.wait()
            }
            let kept = state.withLock { $0.resources }
            if kept != nil || waitedUntil <= DispatchTime.now().uptimeNanoseconds { return kept }
            // The configuration changed while they were read: read the new one.
        }
    }

    /// Reads the files `read` names, with no lock held, keeps them unless the configuration
    /// changed meanwhile, and ends `fetch`.
    private func perform(_ read: ResourceRead, for fetch: BackgroundFetch<ResourceSet>) {
        let loaded = ResourceSet.load(roots: read.roots, developmentLanguage: read.developmentLanguage)
        let isNew = state.withLock { state -> Bool in
            guard state.resourcesVersion == read.version, state.resources == nil else { return false }
            state.resources = loaded
            return true
        }
        if isNew { warnAboutEmptyRoots(of: loaded) }
        fetch.finish(with: loaded)
    }

    /// Logs each root of `roots` that does not exist, one line each.
    private func warnAboutMissing(_ roots: [String]) {
        for problem in ResourceRootProblem.missing(in: roots) { log("l10nd-client: warning: \(problem)") }
    }

    /// Logs each root of freshly read `resources` that exists but holds no language.
    private func warnAboutEmptyRoots(of resources: ResourceSet) {
        for problem in ResourceRootProblem.noLanguage(in: resources) { log("l10nd-client: warning: \(problem)") }
    }

    /// The most a lookup that spent its time limit on the daemon waits for the fallback files
    /// beyond it, in seconds, and at most this share of the limit: a small set is read in
    /// milliseconds and answers this very lookup; a large one is not waited for.
    static let fallbackGrace = 0.05
    static let fallbackGraceShare = 0.25

    /// The answer when the daemon failed this call, begun at `started`: the files (waited
    /// for, when they are being read, at most what is left of the time limit, or
    /// ``fallbackGrace`` if that is longer), else what the daemon said before, else the key.
    private func offline(
        _ key: String, tags: [LanguageTag], table: String, plural: PluralCounts, daemon: DaemonLookups,
        since started: DispatchTime
    ) -> (result: LookupResult, source: LookupSource) {
        let limit = daemon.client.timeout
        let grace =
            DispatchTime.now().uptimeNanoseconds
            &+ Self.nanoseconds(min(Self.fallbackGrace, limit * Self.fallbackGraceShare))
        let deadline = max(started.uptimeNanoseconds &+ Self.nanoseconds(limit), grace)
        if let resources = resources(waitingUntil: deadline, limit: max(limit, Self.fallbackGrace)) {
            return (resources.lookup(key, languages: tags, table: table, plural: plural), .files)
        }
        return lastKnown(key, identifiers: tags.map(\.identifier), table: table, plural: plural, daemon: daemon)
    }

    /// What `daemon` said before of `key`, else the key itself, and which of the two answers.
    private func lastKnown(
        _ key: String, identifiers: [String], table: String, plural: PluralCounts, daemon: DaemonLookups
    ) -> (result: LookupResult, source: LookupSource) {
        if let known = daemon.lastKnown(key, languages: identifiers, table: table, plural: plural) {
            return (known, .lastKnown)
        }
        return (.missing(key), .keys)
    }

    private func handle(_ event: LocalizationClient.Event, from daemonSerial: UInt64) {
        guard state.withLock({ $0.daemonSerial == daemonSerial }) else { return }
        invalidate()
        switch event {
        case .changed(let generation, let changes):
            // Maps the new generation now, in the background (this thread must not wait for a
            // reply); lookups go the cached way until it is mapped.
            if let daemon = state.withLock({ $0.daemon }), daemon.mapsTables { daemon.startMapping() }
            let tables = changes.map { LocalizationChange.Table(language: $0.language, table: $0.table) }
            observers.notify(
                LocalizationChange(generation: generation, tables: tables, everything: false, source: .daemon))
        case .connected:
            // A process that read mapped tables before maps the new daemon's now, rather
            // than at its next lookup.
            if let daemon = state.withLock({ $0.daemon }), daemon.mapsTables, !daemon.mapped.kept.isEmpty {
                daemon.startMapping()
            }
            noteSource(reason: nil)
        case .disconnected(let error):
            // The fallback files are read now, in the background: lookups in the outage wait
            // for them no longer than their time limit (a large set takes seconds to read).
            _ = resources(waitingUntil: 0)
            noteSource(reason: error.message)
        }
    }

    /// A new generation was mapped (in the background): the threads' caches, which hold
    /// the cached way's tables or the previous generation, move to it at their next lookup.
    private func handleMapped(from daemonSerial: UInt64) {
        guard state.withLock({ $0.daemonSerial == daemonSerial }) else { return }
        invalidate()
    }

    /// Logs the source when it changed, and tells observers that everything may differ.
    private func noteSource(reason: String?) {
        let current = currentSource()
        let (previous, daemon) = state.withLock { state in
            defer { state.source = current }
            return (state.source, state.daemon)
        }
        let path = daemon?.client.socketPath ?? ""
        // The daemon's own reason for refusing the connection (at its connection limit) is
        // better than none.
        let reason = reason ?? daemon?.client.lastRefusal
        guard previous != current else { return }
        if previous != nil || current != .daemon {
            switch current {
            case .daemon:
                log("l10nd-client: l10nd at \(path) answers; lookups go to the daemon")
            case .files:
                log(
                    "l10nd-client: l10nd at \(path) is unreachable\(reason.map { " (\($0))" } ?? ""); serving the resource files until it is back"
                )
            case .lastKnown:
                log(
                    "l10nd-client: l10nd at \(path) is unreachable\(reason.map { " (\($0))" } ?? ""); serving its last answers (other keys come back unchanged) until it is back"
                )
            case .keys where daemon != nil:
                log(
                    "l10nd-client: l10nd at \(path) is unreachable\(reason.map { " (\($0))" } ?? ""); lookups return their keys until it is back"
                )
            case .keys:
                log("l10nd-client: no daemon and no resources: lookups return their keys")
            }
        }
        if previous != nil {
            observers.notify(LocalizationChange(generation: nil, tables: [], everything: true, source: current))
        }
    }
}
