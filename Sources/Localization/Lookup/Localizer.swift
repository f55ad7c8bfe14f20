import Foundation
import LocalizationCore
import LocalizationWire
import Synchronization

/// Where `localized` gets its strings: `l10nd` (mapped or direct mode) or the resource
/// files read in the process (embedded mode). The rules are in `docs/CLIENT.md`.
///
/// ``shared`` reads its configuration from the environment, and explicit calls override it:
///
/// - `L10N_MODE=embedded|mapped|direct` picks the mode (`cached`, a mode of earlier
///   versions, means mapped; it and any value that names no mode are logged once per
///   process); without it, or with no mode named, mapped mode when the
///   clients' socket rule finds a socket (`L10N_SOCKET`, the per-user socket, the system
///   service's), and embedded mode otherwise.
/// - In a daemon mode the socket is ``useDaemon(socketPath:mode:timeout:)``'s path, else
///   `L10N_SOCKET`, else the daemon's default path.
/// - Resource directories (``useResources(at:developmentLanguage:)``, else
///   `L10N_RESOURCES`) are what embedded mode reads, and a daemon mode's fallback.
///
/// When the daemon is unreachable, lookups are answered from the files if resources are
/// configured, else from the last generation mapped or answers the daemon gave, else with the key
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
        /// The files under `roots`, compiled into private segments.
        var resources: LookupSegments?
        /// Bumped whenever `resources` is dropped: a read of the files begun before is not kept.
        var resourcesVersion: UInt64 = 0
        /// The read of the files in progress, in the background, for `resourcesVersion`: one
        /// read for every thread that needs them, each waiting for it at most its time limit.
        var resourceRead: BackgroundFetch<LookupSegments>?
        var daemon: DaemonLookups?
        var daemonSerial: UInt64 = 0
        /// The source last logged, so each change is logged once.
        var source: LookupSource?
    }

    private static let serials = Atomic<UInt64>(1)
    /// The `L10N_MODE` values that name no mode, already said in this process.
    private static let warnedModes = ForkSafeMutex<Set<String>>([])

    /// `value` in double quotes, as the Python and C clients write an `L10N_MODE` that names
    /// no mode: a stray space shows (`" direct"`), and `"`, `\` and control characters are
    /// escaped (`\"`, `\\`, `\x0A`), so one line stays one line.
    static func quotedMode(_ value: Substring) -> String {
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22, 0x5C: quoted += "\\" + String(scalar)
            case 0..<0x20, 0x7F:
                quoted += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private let state: ForkSafeMutex<State>
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
        state = ForkSafeMutex(State(roots: roots, developmentLanguage: development ?? LanguageTag(language: "en")))
        configured.store(!roots.isEmpty, ordering: .releasing)
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        environmentLanguages = PreferredLanguages.from(environment: environment).map(\.identifier)
        self.log = log ?? { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        // By the rule's own reading (a relative path is taken from the current directory).
        let socket = environment["L10N_SOCKET"].flatMap {
            $0.isEmpty ? nil : DaemonConnection.socketPath(environment: environment)
        }
        // Without L10N_MODE: a daemon found by the clients' rule (L10N_SOCKET, the per-user
        // socket, the system service's) is asked, as l10nctl and the other clients ask it.
        let found =
            socket
            ?? (DaemonConnection.socketIsFound(environment: environment)
                ? DaemonConnection.socketPath(environment: environment) : nil)
        let named = environment["L10N_MODE"].flatMap { $0.isEmpty ? nil : $0 }
        var mode = named.flatMap(LookupMode.init(rawValue:)) ?? (found != nil ? .mapped : .embedded)
        if named == "cached" {
            // Cached mode kept a copy of each table per process; mapped mode reads the one
            // copy the daemon shares, with the same answers.
            mode = .mapped
        }
        if let named, LookupMode(rawValue: named) == nil, Self.warnedModes.withLock({ $0.insert(named).inserted }) {
            // Said once per process and value (as the Python and C clients do), so that
            // whoever set it knows what runs, and a misspelt mode is not silently ignored.
            self.log(
                named == "cached"
                    ? "l10nd-client: L10N_MODE=cached is no longer a mode of its own; using mapped mode (the same answers)"
                    : "l10nd-client: L10N_MODE=\(Self.quotedMode(named.prefix(100))) is not a mode of this library "
                        + "(\(LookupMode.allCases.map(\.rawValue).joined(separator: ", "))); using \(mode.rawValue) mode"
            )
        }
        if mode != .embedded {
            useDaemon(socketPath: found, mode: mode, timeout: environment["L10N_TIMEOUT"].flatMap(Double.init) ?? 1)
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
    /// path), in `mode` (`.mapped`, the default, or `.direct`; `.embedded` is ``useEmbedded()``),
    /// with `timeout` seconds per request. Returns once the first connection attempt is over.
    public func useDaemon(socketPath: String? = nil, mode: LookupMode = .mapped, timeout: Double = 1) {
        guard mode != .embedded else { return useEmbedded() }
        let (serial, daemon) = makeDaemon(socketPath: socketPath, mode: mode, timeout: timeout)
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

    /// A new link to the daemon, and the serial number its events carry.
    private func makeDaemon(
        socketPath: String?, mode: LookupMode, timeout: Double, lastKnown: LookupSegments? = nil
    ) -> (UInt64, DaemonLookups) {
        let serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        let daemon = DaemonLookups(
            socketPath: socketPath, mode: mode, timeout: timeout, lastKnown: lastKnown,
            onEvent: { [weak self] event in self?.handle(event, from: serial) },
            onMapped: { [weak self] in self?.handleMapped(from: serial) })
        return (serial, daemon)
    }

    /// In a child made by `fork()`: replaces `inherited`, the parent's link, with one of the
    /// child's own (connected now, on the child's first lookup), keeping the parent's last
    /// generation as the last known answers. The parent's connection is never used again.
    private func replaceInherited(_ inherited: DaemonLookups) {
        let (serial, daemon) = makeDaemon(
            socketPath: inherited.client.socketPath, mode: inherited.mode, timeout: inherited.client.timeout,
            lastKnown: inherited.mapped.kept.first)
        let replaced = state.withLock { state in
            guard state.daemon === inherited else { return false }
            state.daemon = daemon
            state.daemonSerial = serial
            return true
        }
        if !replaced { daemon.close() }
        invalidate()
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
        case .files(let resources): resources.set.languages
        case .mapped(let daemon), .direct(let daemon): daemon.languages() ?? []
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
        FallbackChain.unmatched(languages, available: servedLanguages)
    }

    /// The table names the current source serves in any language, sorted: the resource
    /// files' (embedded mode, or a daemon mode's fallback), else the daemon's (one
    /// `languages` request); nil when that cannot be told (no daemon answered).
    package var servedTables: [String]? {
        switch route() {
        case .files(let resources): resources.tableNames
        case .mapped(let daemon), .direct(let daemon): daemon.tables()
        case .lastKnown, .keys: nil
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
        daemon?.mapped.reset()
        daemon?.requestMap()
        invalidate()
    }

    // MARK: Lookups

    /// Looks `key` up for `languages` (preferred first; tags that do not parse are skipped)
    /// in `table` (`nil` means `Localizable`); `count` selects a plural form.
    ///
    /// In embedded mode the result carries the whole ``TableEntry``; in the daemon modes
    /// `entry` is `nil` (a mapped generation selects plural forms in place).
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
    /// In direct mode the daemon selects (protocol 1.3's `counts`); a daemon older than 1.3
    /// is sent the first count for every variable instead. A mapped generation selects in place.
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
        ThreadLookupCache.current.pointee.releaseOutdated(owner: serial, epoch: currentEpoch)
        let tags = LanguageTag.preferences(languages)
        let identifiers = tags.map(\.identifier)
        let tableName = ResourceCatalog.tableName(table)
        switch route() {
        case .mapped(let daemon):
            // Read once: an event may retire the current generation at any moment, and a
            // second read would then find none and answer the key.
            guard let current = daemon.mapped.current else {
                return askDaemon(key, tags: tags, table: tableName, plural: plural, daemon: daemon)
            }
            // Answered in place, along the chain, plural forms included.
            let result = current.lookup(key, tags: tags, table: tableName, plural: plural)
            if !result.found
                || DaemonLookups.isFallback(
                    result, for: tags, developmentLanguage: state.withLock { $0.developmentLanguage })
            {
                daemon.misses.record(key, in: MissReporter.TableKey(languages: identifiers, table: tableName))
            }
            return (result, .daemon)
        case .direct(let daemon):
            return askDaemon(key, tags: tags, table: tableName, plural: plural, daemon: daemon)
        case .files(let resources):
            return (resources.lookup(key, tags: tags, table: tableName, plural: plural), .files)
        case .lastKnown(let daemon):
            return lastKnown(key, identifiers: identifiers, table: tableName, plural: plural, daemon: daemon)
        case .keys:
            return (.missing(key), .keys)
        }
    }

    /// One `lookup` round trip; when the daemon fails it, the files, else what it said before.
    private func askDaemon(
        _ key: String, tags: [LanguageTag], table: String, plural: PluralCounts, daemon: DaemonLookups
    ) -> (result: LookupResult, source: LookupSource) {
        let started = DispatchTime.now()
        if let result = daemon.lookup(key, languages: tags.map(\.identifier), table: table, plural: plural) {
            return (result, .daemon)
        }
        return offline(key, tags: tags, table: table, plural: plural, daemon: daemon, since: started)
    }

    /// The value `localized` returns. In mapped mode (and from the files' private segments,
    /// read the same way), once this thread has read the table, it costs a thread-local read,
    /// the epoch, two short comparisons and a probe of the first language's segment (and a
    /// copy of the value unless this thread made it before, ``MappedValueCache``): no lock,
    /// no allocation, no reference count on anything other threads share.
    @usableFromInline
    func value(_ key: String, languages: LanguageList, table: String?) -> String {
        let local = ThreadLookupCache.current
        let epoch = currentEpoch
        if local.pointee.lastTableIs(languages, table, owner: serial, epoch: epoch),
            let reader = local.pointee.lastFirst,
            let value = local.pointee.mappedValues.value(key, in: reader)
        {
            return value
        }
        return valueSlowly(key, languages: languages, table: table, epoch: epoch, local: local)
    }

    /// ``value(_:languages:table:)`` when the thread's last table's first segment does not
    /// have the key: a new epoch, another table, a key from a later language of the chain,
    /// a miss, or a route that reads no segments (direct mode, a daemon mode's outage without
    /// files). The files' private segments are read as a mapped generation is.
    @inline(never)
    private func valueSlowly(
        _ key: String, languages: LanguageList, table: String?, epoch: UInt64,
        local: UnsafeMutablePointer<ThreadLookupCache>
    ) -> String {
        if local.pointee.owner != serial || local.pointee.epoch != epoch {
            local.pointee.reset(owner: serial, epoch: epoch, route: route())
        }
        let daemon = local.pointee.mappedDaemon
        guard let segments = local.pointee.files ?? daemon?.mapped.current else {
            return lookup(key, languages: languages.tags, table: table).value
        }
        let name = ThreadLookupCache.TableName(languages: languages, table: table)
        if !local.pointee.lastTableIs(languages, table, owner: serial, epoch: epoch) || local.pointee.lastProbe == nil {
            let tags = LanguageTag.preferences(languages.tags)
            local.pointee.remember(segments.probe(tags, table: ResourceCatalog.tableName(table)), as: name)
        }
        if let answer = try? local.pointee.lastProbe?.answer(key), let value = try? answer.value() {
            // Off the fast path, which reads only the first language's own segment: an answer
            // from further along the chain may be a fallback the missing-key report lists.
            noteFallback(key, answeredIn: answer.language, languages: languages, table: table, local: local)
            return value
        }
        guard let daemon else { return key }
        let identifiers = LanguageTag.preferences(languages.tags).map(\.identifier)
        daemon.misses.record(
            key, in: MissReporter.TableKey(languages: identifiers, table: ResourceCatalog.tableName(table)))
        return key
    }

    /// Reports `key` for the missing-key report when it was answered in `language`, a
    /// fallback (`de` served from `Base`): what its readers saw untranslated, as the daemon
    /// lists for the lookups it answers itself. The reporter sends each key once per interval.
    @inline(never)
    private func noteFallback(
        _ key: String, answeredIn language: LanguageTag, languages: LanguageList, table: String?,
        local: UnsafeMutablePointer<ThreadLookupCache>
    ) {
        guard let daemon = local.pointee.mappedDaemon else { return }
        let tags = LanguageTag.preferences(languages.tags)
        let result = LookupResult(value: "", found: true, language: language, entry: nil)
        guard
            DaemonLookups.isFallback(result, for: tags, developmentLanguage: state.withLock { $0.developmentLanguage })
        else { return }
        daemon.misses.record(
            key, in: MissReporter.TableKey(languages: tags.map(\.identifier), table: ResourceCatalog.tableName(table)))
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

    /// The epoch the threads' caches compare with: it also moves in a child made by `fork()`,
    /// whose first lookup must leave the parent's connection for one of its own.
    private var currentEpoch: UInt64 {
        epoch.load(ordering: .acquiring) &+ ProcessFork.generation &<< 48
    }

    /// The route for now, reading the files when they are what answers and not read yet: in
    /// a daemon mode waiting for them at most the time limit (then what the daemon said,
    /// while they are read in the background), in embedded mode until they are read.
    private func route() -> LookupRoute {
        if let inherited = state.withLock({ $0.daemon }), inherited.isInherited { replaceInherited(inherited) }
        let (route, daemon) = state.withLock { state -> (LookupRoute?, DaemonLookups?) in
            if let daemon = state.daemon, daemon.client.isConnected {
                return (daemon.mapsTables ? .mapped(daemon) : .direct(daemon), daemon)
            }
            if let resources = state.resources { return (.files(resources), state.daemon) }
            return (nil, state.daemon)
        }
        if let route { return route }
        // A loop that could not be made (no descriptor free) is tried again, at most once a second.
        daemon?.client.startIfStopped()
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
    private func resources(waitingUntil deadline: UInt64?, limit: Double? = nil) -> LookupSegments? {
        while true {
            let next = state.withLock { state -> (LookupSegments?, BackgroundFetch<LookupSegments>?, ResourceRead?) in
                if let resources = state.resources { return (resources, nil, nil) }
                guard let read = ResourceRead(state) else { return (nil, nil, nil) }
                if let fetch = state.resourceRead { return (nil, fetch, nil) }
                let fetch = BackgroundFetch<LookupSegments>()
                state.resourceRead = fetch
                return (nil, fetch, read)
            }
            guard let fetch = next.1 else { return next.0 }
            if let read = next.2 {
                // A thread of its own, not a Dispatch queue: a child made by `fork()` may not use
                // the parent's queues. It ends with the read.
                Thread { [self] in perform(read, for: fetch) }.start()
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

    /// Reads the files `read` names and compiles them into private segments with the
    /// daemon's builder, with no lock held; keeps the segments (and nothing of the parse)
    /// unless the configuration changed meanwhile, and ends `fetch`.
    private func perform(_ read: ResourceRead, for fetch: BackgroundFetch<LookupSegments>) {
        let loaded = ResourceSet.load(roots: read.roots, developmentLanguage: read.developmentLanguage)
        let segments = LookupSegments(compiled: loaded)
        let isNew = state.withLock { state -> Bool in
            guard state.resourcesVersion == read.version, state.resources == nil else { return false }
            state.resources = segments
            return true
        }
        if isNew { warnAboutEmptyRoots(of: loaded) }
        fetch.finish(with: segments)
    }

    /// Logs each root of `roots` that does not exist, one line each.
    private func warnAboutMissing(_ roots: [String]) {
        for problem in ResourceRootProblem.missing(in: roots) { log("l10nd-client: warning: \(problem)") }
    }

    /// Logs each root of freshly read `resources` that exists but holds no language.
    private func warnAboutEmptyRoots(of resources: ResourceSet) {
        for problem in ResourceRootProblem.noLanguage(in: resources) { log("l10nd-client: warning: \(problem)") }
    }

    /// The answer when the daemon failed this call, begun at `started`: the files (waited
    /// for, when they are being read, at most what is left of the time limit), else what the
    /// daemon said before, else the key.
    private func offline(
        _ key: String, tags: [LanguageTag], table: String, plural: PluralCounts, daemon: DaemonLookups,
        since started: DispatchTime
    ) -> (result: LookupResult, source: LookupSource) {
        let limit = daemon.client.timeout
        let deadline = started.uptimeNanoseconds &+ Self.nanoseconds(limit)
        if let resources = resources(waitingUntil: deadline, limit: limit) {
            return (resources.lookup(key, tags: tags, table: table, plural: plural), .files)
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
            // The link has asked `map` already; lookups ask the daemon until it is mapped.
            let tables = changes.map { LocalizationChange.Table(language: $0.language, table: $0.table) }
            observers.notify(
                LocalizationChange(generation: generation, tables: tables, everything: false, source: .daemon))
        case .connected:
            noteSource(reason: nil)
        case .disconnected(let error):
            // The fallback files are read now, in the background: lookups in the outage wait
            // for them no longer than their time limit (a large set takes seconds to read).
            _ = resources(waitingUntil: 0)
            noteSource(reason: error.message)
        }
    }

    /// A new generation was mapped: the threads' caches, which hold the previous generation
    /// (or none), move to it at their next lookup.
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
