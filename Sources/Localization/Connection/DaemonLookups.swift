import LocalizationCore
import LocalizationWire
import Synchronization

/// A ``Localizer``'s link to `l10nd` in mapped, cached or direct mode: the client
/// connection, the mapped generation (mapped mode), the resolved tables (cached mode, and
/// mapped mode's fallback), the remembered answers (direct mode) and the miss reporter. Replaced as a whole when the localizer is configured again.
final class DaemonLookups: Sendable {
    /// A daemon's protocol minor version, shared with the connection's event handler.
    private final class ProtocolMinorVersion: Sendable {
        let value = Atomic<Int>(WireProtocolVersion.minor)
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

    /// The least time limit of a `map` request, in seconds.
    static let mapTimeout = 60.0

    /// The most round-trip answers (direct mode, or with counts) remembered for when the
    /// daemon goes away.
    static let rememberedCapacity = 10_000

    let mode: LookupMode
    let client: LocalizationClient
    let cache: ResolvedTableCache
    let mapped = MappedTablesCache()
    let misses: MissReporter
    let developmentLanguage: LanguageTag
    private let remembered = Mutex<[Question: LookupResult]>([:])
    /// The connected daemon's protocol minor version, from its `hello`: before 1.3 a
    /// lookup cannot carry `counts`.
    private let daemonMinorVersion = ProtocolMinorVersion()

    /// Connects (first attempt before returning); `onEvent` hears every connection event
    /// after the cache has applied it.
    init(
        socketPath: String?, mode: LookupMode, timeout: Double, developmentLanguage: LanguageTag,
        onEvent: @escaping @Sendable (LocalizationClient.Event) -> Void
    ) {
        let cache = ResolvedTableCache()
        let mapped = self.mapped
        let daemonMinorVersion = self.daemonMinorVersion
        self.cache = cache
        self.mode = mode
        self.developmentLanguage = developmentLanguage
        client = LocalizationClient(socketPath: socketPath, timeout: timeout, subscribe: true) { event in
            switch event {
            case .connected(let hello):
                cache.reset()
                mapped.reset()
                let minor = hello["protocol"]?["minor"]?.integerValue.map { Int(clamping: $0) }
                daemonMinorVersion.value.store(minor ?? 0, ordering: .relaxed)
            case .changed(let generation, let changes):
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
    }

    /// Whether lookups read mapped tables: mapped mode, with a daemon that has `map`.
    var mapsTables: Bool {
        mode == .mapped && daemonMinorVersion.value.load(ordering: .relaxed) >= Self.mapMinorVersion
    }

    /// The current generation's compiled tables, mapped: kept, else asked for with `map`;
    /// `nil` when the daemon failed, or while another thread asks (mapped lookups then fall
    /// back to cached ones).
    func mappedTables() -> MappedTables? {
        if let current = mapped.current { return current }
        guard mapped.beginFetch() else { return nil }
        defer { mapped.endFetch() }
        for _ in 0..<3 {
            guard let connectionNumber = mapped.attempt else { return nil }
            let reply: WireReply
            // The first `map` of a generation waits for the daemon to compile it (seconds for a
            // million strings): a time limit meant for lookups would call the daemon hung.
            do { reply = try client.send(.map, timeout: max(client.timeout, Self.mapTimeout)) } catch { return nil }
            guard case .fields(let fields) = reply, let number = fields["mapping"]?.integerValue,
                let mapping = ReceivedMappings.take(number), let tables = try? MappedTables(mapping)
            else {
                // Refused, or the descriptor failed its checks: not asked again on this connection.
                mapped.noteFailure(onConnection: connectionNumber)
                return nil
            }
            if mapped.store(tables, fetchedOnConnection: connectionNumber) { return tables }
            // An event newer than the reply arrived meanwhile: ask again for the newer generation.
            if let newer = mapped.current { return newer }
        }
        return nil
    }

    /// The resolved table for `key`: cached, else fetched; `nil` when the daemon failed.
    func table(for key: ResolvedTable.Key) -> ResolvedTable? {
        if let table = cache.table(for: key) { return table }
        // A reply older than an event that arrived meanwhile is used once, not kept; a
        // second fetch then sees the new generation.
        for _ in 0..<3 {
            let connectionNumber = cache.connectionNumber
            guard case .table(let result)? = try? client.send(.table(languages: key.languages, table: key.table)) else {
                return nil
            }
            let chain = FallbackChain(
                preferred: key.languages.compactMap { try? LanguageTag($0) }, developmentLanguage: developmentLanguage)
            let table = ResolvedTable(
                key: key, entries: result.entries, servedBy: result.languages, generation: result.generation,
                chain: chain.identifiers)
            if cache.store(table, fetchedOnConnection: connectionNumber) { return table }
            if let newer = cache.table(for: key) { return newer }
            if connectionNumber != cache.connectionNumber { return table }
        }
        return nil
    }

    /// One `lookup` round trip, the daemon selecting plural forms as `plural` says; `nil`
    /// when the daemon failed.
    func lookup(_ key: String, languages: [String], table: String, plural: PluralCounts) -> LookupResult? {
        let operation = Self.lookupOperation(
            key, languages: languages, table: table, plural: plural,
            daemonMinorVersion: daemonMinorVersion.value.load(ordering: .relaxed))
        guard case .lookup(let reply)? = try? client.send(operation) else { return nil }
        let result = LookupResult(
            value: reply.value, found: reply.found, language: reply.language.flatMap { try? LanguageTag($0) },
            entry: nil)
        // Cached mode's tables answer everything but plural selections.
        if mode == .direct || plural != .none {
            remembered.withLock { remembered in
                if remembered.count >= Self.rememberedCapacity { remembered.removeAll(keepingCapacity: true) }
                remembered[Question(key: key, languages: languages, table: table, plural: plural)] = result
            }
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

    /// What the daemon last said about `key` asked with `plural`: its remembered answer to
    /// that very question, else the cached table's value (a plural entry's `other` forms).
    func lastKnown(
        _ key: String, languages: [String], table: String, plural: PluralCounts = .none
    ) -> LookupResult? {
        let question = Question(key: key, languages: languages, table: table, plural: plural)
        if let answer = remembered.withLock({ $0[question] }) { return answer }
        if let table = cache.lastKnown(for: ResolvedTable.Key(languages: languages, table: table)) {
            return Self.result(key, in: table)
        }
        guard languages.count == 1, let place = mapped.lastKnown?.place(language: languages[0], table: table) else {
            return nil
        }
        return place.result(key, plural: plural)
    }

    /// The languages the daemon serves (a `languages` request); `nil` when it failed.
    func languages() -> [LanguageTag]? {
        guard case .fields(let fields)? = try? client.send(.languages), let list = fields["languages"]?.arrayValue
        else { return nil }
        return list.compactMap { $0["lang"]?.stringValue.flatMap { try? LanguageTag($0) } }
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
    }
}
