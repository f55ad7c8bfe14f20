import Dispatch
import LocalizationCore
import LocalizationWire
import Synchronization

/// A ``Localizer``'s link to `l10nd` in mapped, cached or direct mode: the client
/// connection, the mapped generation and the connection that maps it (mapped mode), the
/// resolved tables (cached mode, and mapped mode's way until a generation is mapped), the remembered answers (direct mode) and the miss reporter. Replaced as a whole when the localizer is configured again.
final class DaemonLookups: Sendable {
    /// A daemon's protocol minor version, shared with the connection's event handler.
    private final class ProtocolMinorVersion: Sendable {
        let value = Atomic<Int>(WireProtocolVersion.minor)
    }

    /// Whether the daemon answers, shared with the connection's event handler: when it last
    /// answered anything, and when the oldest request a lookup waited for in vain since then
    /// was sent (uptime nanoseconds; 0: none).
    private final class Answering: Sendable {
        let lastReply = Atomic<UInt64>(0)
        let unansweredSince = Atomic<UInt64>(0)
        /// Whether a connection was ever up: before, nothing the daemon said is known.
        let everConnected = Atomic<Bool>(false)
        /// Whether a probe (``DaemonLookups/probe()``) is in flight.
        let probing = Atomic<Bool>(false)

        /// The daemon answered something now.
        func noteReply() {
            lastReply.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        }

        /// A connection is up: nothing has gone unanswered on it.
        func noteConnected() {
            everConnected.store(true, ordering: .relaxed)
            unansweredSince.store(0, ordering: .relaxed)
            noteReply()
        }
    }

    /// A question asked with a round trip, to remember its last answer: with the counts it
    /// selected plural forms by, so a form chosen for one number never answers another.
    private struct Question: Hashable {
        var key: String
        var languages: [String]
        var table: String
        var plural: PluralCounts
    }

    /// The protocol minor version that added a lookup's `counts`.
    static let countsMinorVersion = 3

    /// The protocol minor version that added `map`: an older daemon is used in cached mode.
    static let mapMinorVersion = 5

    /// The least time limit of a `map` request, in seconds: the first `map` of a generation
    /// waits for the daemon to compile it (seconds for a million strings), in the background.
    static let mapTimeout = 60.0

    /// How long after a `map` began lookups may wait for it, at most, in seconds; and at most
    /// this share of the time limit. A generation the daemon compiled already (another process
    /// mapped it) arrives well within it, so even a process's first lookup reads it in place;
    /// a compile in progress costs lookups no more, and they go the cached way meanwhile.
    static let mapWait = 0.1
    static let mapWaitShare = 0.25

    /// How long after it began (or the table's fetch did, if earlier) a lookup that knows
    /// nothing of the table waits for it, at most, in seconds, and at most ``mapWaitShare`` of
    /// the time limit; then it asks its one key (``cachedAnswer(_:in:timeLimit:since:)``). A
    /// mapped-mode lookup has spent it waiting for the `map`. A table of a few thousand strings
    /// arrives well within it, and the lookups after it read the process's copy as cached
    /// mode promises; one of 100,000 takes a loaded daemon about a second.
    static let tableWait = 0.1

    /// The least time limit of a `table` request, in seconds: made in the background, it may
    /// take longer than a lookup's limit (a whole table of a large set, resolved by a loaded
    /// daemon), and the lookups after it get it rather than asking again.
    static let tableTimeout = 30.0

    /// The most round-trip answers (direct mode, with counts, or while a table is fetched) remembered for when the
    /// daemon goes away.
    static let rememberedCapacity = 10_000

    let mode: LookupMode
    let client: LocalizationClient
    let cache: ResolvedTableCache
    let mapped = MappedTablesCache()
    let misses: MissReporter
    let developmentLanguage: LanguageTag
    /// Told when a new generation is mapped: lookups then move to it from the cached way.
    private let onMapped: @Sendable () -> Void
    private let remembered = Mutex<[Question: LookupResult]>([:])
    /// The connection `map` requests go on (a `map` waits for the daemon's compile, seconds):
    /// apart from ``client``'s, whose lookups must not wait for it, and from
    /// ``tableConnection``, whose `table` replies answer the cached way meanwhile. Opened for
    /// each new connection of ``client``, so that it reaches the daemon ``client`` reached (a
    /// `map` from another one, with generations of its own, would be kept only if its
    /// generation is not older than the events ``client`` heard).
    private let mapConnection: SideConnection
    /// The connection `table` requests go on: a whole table of a large set takes the daemon
    /// about a second, and the one-key `lookup`s made meanwhile on ``client``'s connection
    /// (``cachedAnswer(_:in:timeLimit:since:)``) must not wait behind it.
    private let tableConnection: SideConnection
    /// Whether the daemon answers (``isAnswering``). ``Localizer/source`` reads it, so that it
    /// says `lastKnown` (or `files`), not `daemon`, on a connection that is up but whose daemon
    /// answers nothing (stopped, not yet given up on); a daemon answering other requests while
    /// one table is slow to come is answering, so `source` does not flap under load.
    private let answering = Answering()
    /// The connected daemon's protocol minor version, from its `hello`: before 1.3 a
    /// lookup cannot carry `counts`.
    private let daemonMinorVersion = ProtocolMinorVersion()

    /// Connects (first attempt before returning); `onEvent` hears every connection event
    /// after the cache has applied it, `onMapped` every generation mapped.
    init(
        socketPath: String?, mode: LookupMode, timeout: Double, developmentLanguage: LanguageTag,
        onEvent: @escaping @Sendable (LocalizationClient.Event) -> Void,
        onMapped: @escaping @Sendable () -> Void = {}
    ) {
        self.onMapped = onMapped
        let cache = ResolvedTableCache()
        let mapped = self.mapped
        let daemonMinorVersion = self.daemonMinorVersion
        let answering = self.answering
        self.cache = cache
        self.mode = mode
        self.developmentLanguage = developmentLanguage
        client = LocalizationClient(socketPath: socketPath, timeout: timeout, subscribe: true) { event in
            switch event {
            case .connected(let hello):
                cache.reset()
                mapped.reset()
                answering.noteConnected()
                let minor = hello["protocol"]?["minor"]?.integerValue.map { Int(clamping: $0) }
                daemonMinorVersion.value.store(minor ?? 0, ordering: .relaxed)
            case .changed(let generation, let changes):
                answering.noteReply()
                cache.invalidate(
                    changes.map { LocalizationChange.Table(language: $0.language, table: $0.table) },
                    generation: generation)
                mapped.invalidate(generation: generation)
            case .disconnected: break  // the tables stay: they are the last known answers
            }
            onEvent(event)
        }
        let client = self.client
        misses = MissReporter { batch in
            _ = try? client.send(.batch(keys: batch.keys, languages: batch.languages, table: batch.table))
        }
        // Background requests may take longer than a lookup's limit, and so may a loaded
        // daemon's handshake (past a short limit it would end mapping until the next connection).
        mapConnection = SideConnection(socketPath: client.socketPath, timeout: max(timeout, Self.mapTimeout))
        tableConnection = SideConnection(socketPath: client.socketPath, timeout: max(timeout, Self.tableTimeout))
    }

    /// Whether the daemon answers: `false` once a request a lookup needed went unanswered in
    /// its time limit (a lookup's round trip, or a table it waited for) and the daemon has
    /// said nothing since that request was sent, on any of this link's connections (a reply,
    /// an event); `true` again at its next word, or when a new connection is up.
    var isAnswering: Bool {
        let unanswered = answering.unansweredSince.load(ordering: .relaxed)
        return unanswered == 0 || answering.lastReply.load(ordering: .relaxed) > unanswered
    }

    /// Whether a connection to the daemon was ever up: before, it said nothing to fall back on.
    var everConnected: Bool { answering.everConnected.load(ordering: .relaxed) }

    /// Asks the daemon something small, without waiting, one probe at a time, when it is not
    /// answering (``isAnswering``) on a connection that is up: its reply, whenever it comes,
    /// says it answers again even when no lookup asks it anything (mapped tables answer them
    /// in place). It has no time limit: a stopped daemon's connection is not ended for it
    /// (a lookup's own request past its limit does that). Begun when a request goes
    /// unanswered, and when ``Localizer/source`` finds the daemon not answering.
    func probe() {
        guard !isAnswering, client.isConnected,
            answering.probing.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        let answering = self.answering
        do {
            try client.sendWithoutTimeLimit(.languages) { result in
                if case .success = result { answering.noteReply() }
                answering.probing.store(false, ordering: .relaxed)
            }
        } catch {
            answering.probing.store(false, ordering: .relaxed)
        }
    }

    /// Notes that the daemon answered a request.
    private func noteAnswered() { answering.noteReply() }

    /// Notes that a request a lookup needed, sent at `sent` (uptime nanoseconds) on connection
    /// `connectionNumber` (``ResolvedTableCache/connectionNumber``), went unanswered in the
    /// lookup's time limit: the lookup is answered by a fallback. A request of an earlier
    /// connection says nothing of the current one, nor does one the daemon answered
    /// something after (it is busy, not gone).
    private func noteUnanswered(sent: UInt64, onConnection connectionNumber: Int) {
        let lastReply = answering.lastReply.load(ordering: .relaxed)
        guard connectionNumber == cache.connectionNumber, lastReply <= sent else { return }
        // The oldest such request since the daemon last said something: one answered before
        // it no longer counts.
        let current = answering.unansweredSince.load(ordering: .relaxed)
        if current == 0 || current < lastReply || current > sent {
            answering.unansweredSince.store(sent, ordering: .relaxed)
        }
        // A daemon that is only busy (one table slow to come) says so at the probe's reply.
        probe()
    }

    /// Whether lookups read mapped tables: mapped mode, with a daemon that has `map`.
    var mapsTables: Bool {
        mode == .mapped && daemonMinorVersion.value.load(ordering: .relaxed) >= Self.mapMinorVersion
    }

    /// The current generation's compiled tables, mapped; else `nil`, and the lookup goes the
    /// cached way. Never waits for a compile: mapping happens in the background (begun here if
    /// nobody began it), and a lookup waits for it only while it is young (``mapWait``), so
    /// that a generation the daemon has compiled already answers at once.
    func mappedTables() -> MappedTables? {
        if let current = mapped.current { return current }
        guard let fetch = startMapping() else { return nil }
        let waitLimit = min(Self.mapWait, client.timeout * Self.mapWaitShare)
        _ = fetch.wait(until: fetch.started &+ Self.nanoseconds(waitLimit))
        return mapped.current
    }

    /// What is left of `limit` (default the client's time limit) `started` ago, for the
    /// requests of a lookup that waited for a `map` or a table (at most ``mapWaitShare`` of
    /// it): so the lookup as a whole takes no longer than the limit. At least half the limit,
    /// so that a thread the system held up does not call the daemon hung.
    func timeLeft(since started: DispatchTime, of limit: Double? = nil) -> Double {
        let limit = limit ?? client.timeout
        let waited = Double(DispatchTime.now().uptimeNanoseconds &- started.uptimeNanoseconds) / 1e9
        return max(limit / 2, limit - waited)
    }

    /// Maps the current generation in the background, unless it is mapped, being mapped, or
    /// a `map` failed on this connection; returns the fetch in flight, if any.
    @discardableResult
    func startMapping() -> MappedTablesCache.Fetch? {
        guard let fetch = mapped.beginFetch() else { return mapped.inFlight }
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { mapped.endFetch(fetch) }
            fetchMapping()
        }
        return fetch
    }

    /// Asks `map` until a generation at least as new as the last event is kept, the daemon
    /// fails, or three replies were already outdated.
    private func fetchMapping() {
        for _ in 0..<3 {
            guard let connectionNumber = mapped.attempt else { return }
            let reply: WireReply
            do {
                reply = try mapConnection.client(for: connectionNumber).send(
                    .map, timeout: max(client.timeout, Self.mapTimeout))
            } catch {
                // Late, or the connection broke: the next connection asks again.
                mapped.noteFailure(onConnection: connectionNumber)
                return
            }
            guard case .fields(let fields) = reply, let number = fields["mapping"]?.integerValue,
                let mapping = ReceivedMappings.take(number), let tables = try? MappedTables(mapping)
            else {
                // Refused, or the descriptor failed its checks: not asked again on this connection.
                mapped.noteFailure(onConnection: connectionNumber)
                return
            }
            noteAnswered()
            if mapped.store(tables, fetchedOnConnection: connectionNumber) {
                // The tables this generation answers need no copy of their own any more.
                cache.drop { key in
                    key.languages.count == 1 && tables.place(language: key.languages[0], table: key.table) != nil
                }
                onMapped()
                return
            }
            // An event newer than the reply arrived meanwhile, or a new connection: ask again.
            if mapped.current != nil { return }
        }
    }

    /// The resolved table for `key`: cached, else the one `table` fetch in flight for it
    /// (begun here if none is), waited for at most `timeLimit` seconds (default the client's)
    /// and no later than the client's limit after it began; `nil` when it failed or is late.
    /// The fetch goes on in the background with a limit of its own (``tableTimeout``), so a
    /// table slower than a lookup's limit is asked once and arrives for the lookups after.
    func table(for key: ResolvedTable.Key, timeLimit: Double? = nil) -> ResolvedTable? {
        if let table = cache.table(for: key) { return table }
        let connectionNumber = cache.connectionNumber
        let fetch = beginFetch(key)
        let now = DispatchTime.now().uptimeNanoseconds
        let table = fetch.wait(
            until: min(
                now &+ Self.nanoseconds(timeLimit ?? client.timeout), fetch.started &+ Self.nanoseconds(client.timeout))
        )
        if table == nil { noteUnanswered(sent: fetch.started, onConnection: connectionNumber) }
        return table
    }

    /// The one `table` fetch in flight for `key`, begun in the background if none is.
    @discardableResult
    private func beginFetch(_ key: ResolvedTable.Key) -> BackgroundFetch<ResolvedTable> {
        let (fetch, isNew) = cache.fetch(for: key)
        if isNew {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                cache.endFetch(fetch, for: key, with: fetchTable(key))
            }
        }
        return fetch
    }

    /// How the cached way answers a lookup of one key: from a resolved table, or from a
    /// `lookup` round trip.
    enum CachedAnswer {
        /// The table, cached or fetched in time.
        case table(ResolvedTable)
        /// The daemon's answer to a `lookup` of the key.
        case lookup(LookupResult)
        /// Neither in time: the lookup is answered by a fallback.
        case none
    }

    /// `key` in the table `tableKey` names, within `timeLimit` seconds (default the client's),
    /// for a lookup that began at `started`. A table cached answers. When nothing the daemon
    /// said of that table is known (a new process, or a table not asked before), its fetch
    /// begins in the background and is waited for briefly (``tableWait``); if it is not there
    /// by then, the key is asked with
    /// one `lookup` round trip, which the daemon answers at once from its catalog (the table
    /// comes on a connection of its own): a new process's first lookups never wait for a
    /// whole table (about a second for 100,000 strings on a loaded daemon) nor return the
    /// bare key because one is late. When an older copy of the table is known (a change took
    /// it out of service, it came from an earlier connection, or a mapped generation holds
    /// it), the refetch is waited for as ``table(for:timeLimit:)`` says, and the old copy
    /// answers a late one: a daemon slow to resolve is not also asked per key.
    func cachedAnswer(
        _ key: String, in tableKey: ResolvedTable.Key, timeLimit: Double? = nil, since started: DispatchTime = .now()
    ) -> CachedAnswer {
        if let table = cache.table(for: tableKey) { return .table(table) }
        guard !knowsOf(tableKey) else {
            return table(for: tableKey, timeLimit: timeLimit).map(CachedAnswer.table) ?? .none
        }
        let asked = DispatchTime.now()
        let limit = timeLimit ?? client.timeout
        let fetch = beginFetch(tableKey)
        let waitLimit = Self.nanoseconds(min(Self.tableWait, client.timeout * Self.mapWaitShare))
        if let table = fetch.wait(until: min(fetch.started, started.uptimeNanoseconds) &+ waitLimit) {
            return .table(table)
        }
        return lookup(
            key, languages: tableKey.languages, table: tableKey.table, plural: .none,
            timeLimit: timeLeft(since: asked, of: limit)
        ).map(CachedAnswer.lookup) ?? .none
    }

    /// Whether something the daemon said of the table `key` names is known: an earlier or
    /// stale copy of it, or a mapped generation kept that holds it.
    private func knowsOf(_ key: ResolvedTable.Key) -> Bool {
        if cache.lastKnown(for: key) != nil { return true }
        guard key.languages.count == 1 else { return false }
        return mapped.kept.contains { $0.place(language: key.languages[0], table: key.table) != nil }
    }

    /// Asks `table` for `key` until a reply is kept; `nil` when the daemon failed. A reply
    /// older than an event that arrived meanwhile is used once, not kept; a second fetch then
    /// sees the new generation.
    private func fetchTable(_ key: ResolvedTable.Key) -> ResolvedTable? {
        for _ in 0..<3 {
            let connectionNumber = cache.connectionNumber
            guard
                case .table(let result)? = try? tableConnection.client(for: connectionNumber).sendInBackground(
                    .table(languages: key.languages, table: key.table),
                    timeout: max(client.timeout, Self.tableTimeout))
            else {
                return nil
            }
            noteAnswered()
            let chain = FallbackChain(
                preferred: key.languages.compactMap { try? LanguageTag($0) }, developmentLanguage: developmentLanguage)
            let fallbacks = Set(result.languages.values).filter { served in
                (try? LanguageTag(served)).flatMap(chain.untranslatedLanguage(servedBy:)) != nil
            }
            let table = ResolvedTable(
                key: key, entries: result.entries, servedBy: result.languages, generation: result.generation,
                chain: chain.identifiers, fallbackLanguages: fallbacks)
            if cache.store(table, fetchedOnConnection: connectionNumber) { return table }
            if let newer = cache.table(for: key) { return newer }
            if connectionNumber != cache.connectionNumber { return table }
        }
        return nil
    }

    /// `seconds` in nanoseconds (none when negative).
    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }

    /// One `lookup` round trip (within `timeLimit` seconds, default the client's), the daemon
    /// selecting plural forms as `plural` says; `nil` when the daemon failed.
    func lookup(
        _ key: String, languages: [String], table: String, plural: PluralCounts, timeLimit: Double? = nil
    ) -> LookupResult? {
        let operation = Self.lookupOperation(
            key, languages: languages, table: table, plural: plural,
            daemonMinorVersion: daemonMinorVersion.value.load(ordering: .relaxed))
        let connectionNumber = cache.connectionNumber
        let sent = DispatchTime.now().uptimeNanoseconds
        guard case .lookup(let reply)? = try? client.send(operation, timeout: timeLimit) else {
            noteUnanswered(sent: sent, onConnection: connectionNumber)
            return nil
        }
        noteAnswered()
        let result = LookupResult(
            value: reply.value, found: reply.found, language: reply.language.flatMap { try? LanguageTag($0) },
            entry: nil)
        // For when the daemon goes away: direct mode's answers, counted questions, and the
        // cached way's one-key questions asked while their table is on its way.
        remembered.withLock { remembered in
            if remembered.count >= Self.rememberedCapacity { remembered.removeAll(keepingCapacity: true) }
            remembered[Question(key: key, languages: languages, table: table, plural: plural)] = result
        }
        return result
    }

    /// The `lookup` that asks a daemon speaking protocol 1.`daemonMinorVersion` for
    /// `plural`'s selection. `counts` longer than the protocol allows are cut (the later
    /// arguments' variables take `other`); a daemon older than 1.3 would refuse `counts`
    /// and is sent the first number as the `count` of every variable, as before 1.3.
    static func lookupOperation(
        _ key: String, languages: [String], table: String, plural: PluralCounts, daemonMinorVersion: Int
    ) -> WireOperation {
        guard case .counts(let counts) = plural else {
            return .lookup(key: key, languages: languages, table: table, plural: plural)
        }
        guard daemonMinorVersion >= countsMinorVersion else {
            let first = counts.lazy.compactMap { $0 }.first
            return .lookup(key: key, languages: languages, table: table, plural: PluralCounts(first))
        }
        return .lookup(
            key: key, languages: languages, table: table,
            plural: .counts(Array(counts.prefix(WireOperation.maximumCounts))))
    }

    /// What the daemon last said about `key` asked with `plural`: with counts, its remembered
    /// answer to that very question first; then the cached table's value (a plural entry's
    /// `other` forms), the mapped generation's, and a remembered answer to the key alone (a
    /// table that came after such a round trip is newer than it).
    func lastKnown(
        _ key: String, languages: [String], table: String, plural: PluralCounts = .none
    ) -> LookupResult? {
        let question = Question(key: key, languages: languages, table: table, plural: plural)
        if plural != .none, let answer = remembered.withLock({ $0[question] }) { return answer }
        if let table = cache.lastKnown(for: ResolvedTable.Key(languages: languages, table: table)) {
            return Self.result(key, in: table)
        }
        // The mapped generations kept: the newest that has the (language, table) answers.
        if languages.count == 1,
            let place = mapped.kept.lazy.compactMap({ $0.place(language: languages[0], table: table) }).first
        {
            return place.result(key, plural: plural)
        }
        return plural == .none ? remembered.withLock { $0[question] } : nil
    }

    /// The languages the daemon serves (a `languages` request); `nil` when it failed.
    func languages() -> [LanguageTag]? {
        guard case .fields(let fields)? = try? client.send(.languages), let list = fields["languages"]?.arrayValue
        else { return nil }
        noteAnswered()
        return list.compactMap { $0["lang"]?.stringValue.flatMap { try? LanguageTag($0) } }
    }

    /// Whether `result`, found for the preferences `tags`, came from a fallback (a language
    /// other than the first preference's own): the reader saw it untranslated, and the
    /// missing-key report lists it, as the daemon lists its own lookups' fallback answers.
    func isFallback(_ result: LookupResult, for tags: [LanguageTag]) -> Bool {
        guard result.found, let served = result.language else { return false }
        let chain = FallbackChain(preferred: tags, developmentLanguage: developmentLanguage)
        return chain.untranslatedLanguage(servedBy: served) != nil
    }

    /// `key` read from a resolved table.
    static func result(_ key: String, in table: ResolvedTable) -> LookupResult {
        guard let value = table.entries[key] else { return .missing(key) }
        return LookupResult(
            value: value, found: true, language: table.servedBy[key].flatMap { try? LanguageTag($0) }, entry: nil)
    }

    /// Stops the connection and sends the misses still waiting.
    func close() {
        misses.flush()
        client.close()
        mapConnection.close()
        tableConnection.close()
    }
}
