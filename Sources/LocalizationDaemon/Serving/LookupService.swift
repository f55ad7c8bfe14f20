import Dispatch
import Glibc
package import LocalizationCore
package import LocalizationSockets
package import LocalizationWire
import Synchronization

/// The daemon's answers: turns each request into a reply from the current snapshot.
///
/// Lookups read one immutable ``ResourceSnapshot`` per request, so a reply never mixes two
/// generations. Operations that take time or change state (`reload`) are handed to the
/// daemon through ``Actions``; `table`, which may resolve and send megabytes, answers from
/// its own queue, so the server's loop — every client's lookups — never waits for one; `map`
/// carries descriptors (``handleMap(from:reply:)``); the rest answer at once.
package final class LookupService: WireRequestHandler {
    /// What the service asks of the daemon around it.
    package struct Actions: Sendable {
        /// Runs a full rescan and calls back with its summary once the new tables are served.
        package var reload: @Sendable (_ done: @escaping @Sendable (ChangeSummary) -> Void) -> Void
        /// The daemon's parts of the `status` reply (``StatusReport/DaemonParts``): the
        /// watcher's and the server's counters, among others; `nil` when there are none.
        package var status: @Sendable () -> StatusReport.DaemonParts?
        /// Extra `metrics` families: the watcher's, the server's and the process's.
        package var metrics: @Sendable () -> [MetricFamily]

        /// Creates the actions.
        package init(
            reload: @escaping @Sendable (_ done: @escaping @Sendable (ChangeSummary) -> Void) -> Void,
            status: @escaping @Sendable () -> StatusReport.DaemonParts?,
            metrics: @escaping @Sendable () -> [MetricFamily] = { [] }
        ) {
            self.reload = reload
            self.status = status
            self.metrics = metrics
        }
    }

    let store: ResourceStore
    let missing: MissingKeyReport
    let counters: DaemonCounters
    let actions: Actions
    /// The users who may change the daemon (`reload`): root and the daemon's own user.
    /// Everyone who can connect may look strings up.
    let administrators: Set<UInt32>
    /// The chains of requests' preference lists, as they were sent, by the generation they
    /// were built for: a chain is built with the languages the segments have (a new `nl-BE`
    /// folder changes what `nl` reaches), so a new generation builds its own.
    private let chains = FallbackChainCache<ChainKey>()

    /// What a kept chain depends on: the request's languages and the snapshot's generation.
    private struct ChainKey: Hashable, Sendable {
        var languages: [String]
        var generation: UInt64
    }
    /// Where `table` requests are answered, several at once: a new client asking for ten
    /// languages' tables of a large set (about a second each) would otherwise wait for them
    /// one after another. Dispatch runs a concurrent queue's work on at most about one thread
    /// per core, and lookups never wait here (they are answered on the server's loop).
    private let tables = DispatchQueue(label: "l10nd.tables", qos: .utility, attributes: .concurrent)
    /// The segment probe binary frames used last, kept across bursts.
    private let frameProbes = FrameProbeCache()
    /// The `map` reply of the newest generation asked for, and its slabs (held until a `map`
    /// of a newer generation replaces them: at most one generation more than the store holds).
    private let manifests = Mutex<(generation: UInt64, reply: WireReply, slabs: [SegmentSlab])?>(nil)
    /// Called on the tables queue as each `table` request begins, with its languages. For
    /// tests: a request held here shows, without timing, that others are answered meanwhile.
    private let beginningTable: (@Sendable (_ languages: [String]) -> Void)?

    /// Creates a service answering from `store`; `administrators` are the user ids allowed
    /// to change the daemon, as `SO_PEERCRED` reports them. `beginningTable`, for tests, is
    /// called as each `table` request begins to be answered, with its languages.
    package init(
        store: ResourceStore, missing: MissingKeyReport, counters: DaemonCounters, actions: Actions,
        administrators: Set<UInt32>, beginningTable: (@Sendable (_ languages: [String]) -> Void)? = nil
    ) {
        self.beginningTable = beginningTable
        self.administrators = administrators
        self.store = store
        self.missing = missing
        self.counters = counters
        self.actions = actions
    }

    /// Answers one request, timing it for the `metrics` histograms: until `reply` returns,
    /// or, for `table` and `reload`, which answer later, until their reply is handed over.
    package func handle(_ request: WireRequest, from peer: PeerInfo, reply: @escaping @Sendable (WireReply) -> Void) {
        if let answer = answerAtOnce(request, from: peer) { return reply(answer) }
        let started = DurationHistogram.now()
        let durations = counters.requestDurations(request.operation.kind)
        do throws(WireError) {
            switch request.operation {
            case .table(let languages, let table):
                tables.async { [self] in
                    defer { durations.record(since: started) }
                    beginningTable?(languages)
                    do throws(WireError) {
                        reply(.table(try resolvedTable(languages: languages, table: table)))
                    } catch {
                        reply(.error(error))
                    }
                }
            case .reload:
                try requireAdministrator(for: request.operation, peer)
                actions.reload { summary in
                    defer { durations.record(since: started) }
                    var fields: [String: WireValue] = [
                        "generation": .integer(Int64(summary.generation)),
                        "changes": .array(summary.changes.map(Self.wireValue)),
                    ]
                    fields["configuration"] = summary.configuration?.wireValue
                    reply(.fields(fields))
                }
            default:
                // The server sends `map` to handleMap (the reply carries a descriptor); every
                // other operation is answered at once.
                throw WireError(code: .badRequest, message: "map is answered with a descriptor")
            }
        } catch {
            durations.record(since: started)
            reply(.error(error))
        }
    }

    /// Answers at once (in-memory reads, on the server's loop) every operation but `table`,
    /// `reload` (both answer later, ``handle(_:from:reply:)``) and `map` (whose reply carries
    /// descriptors, ``handleMap(from:reply:)``), timing it for the `metrics` histograms until
    /// the reply is made; `nil` for those three.
    package func answerAtOnce(_ request: WireRequest, from peer: PeerInfo) -> WireReply? {
        let started = DurationHistogram.now()
        let answer: WireReply
        do throws(WireError) {
            switch request.operation {
            case .lookup(let key, let languages, let table, let plural, let arguments):
                answer = .lookup(
                    try lookup(key, languages: languages, table: table, plural: plural, arguments: arguments))
            case .batch(let keys, let languages, let table, let arguments):
                answer = .batch(try batch(keys, languages: languages, table: table, arguments: arguments))
            case .hello:
                answer = .fields([
                    "daemon": .string("l10nd"), "version": .string(DaemonVersion.string),
                    "protocol": .object([
                        "major": .integer(Int64(WireProtocolVersion.major)),
                        "minor": .integer(Int64(WireProtocolVersion.minor)),
                    ]),
                ])
            case .status:
                answer = .fields(
                    StatusReport(snapshot: store.snapshot, counters: counters, daemon: actions.status()).fields)
            case .languages:
                answer = .fields(["languages": languagesValue(store.snapshot)])
            case .missing:
                answer = .fields(missingValue(missing.entries, dropped: missing.droppedEntries))
            case .reset:
                try requireAdministrator(for: request.operation, peer)
                answer = .fields(reset())
            case .metrics:
                answer = .fields([
                    "metrics": .string(metricsText()), "content_type": .string(OpenMetricsText.contentType),
                ])
            case .chain(let languages, let table):
                answer = .fields(try chainFields(languages: languages, table: table))
            case .subscribe:
                answer = .ok  // the server answers subscribe itself; this is never reached
            case .table, .reload, .map:
                return nil
            }
        } catch {
            answer = .error(error)
        }
        counters.requestDurations(request.operation.kind).record(since: started)
        return answer
    }

    /// Answers binary one-language `lookup` frames from the current segments when the
    /// language asked answers them itself: the key's bytes hashed once straight from the
    /// frame and probed along the chain's segments, the value's bytes copied straight from
    /// the segment into `output`, no `String` made. The rest — a miss, an answer from a
    /// fallback language (the missing-key report notes it) — goes the general way,
    /// ``lookup(_:languages:table:plural:arguments:)``, through the same segments. The
    /// counters and the histogram see both paths alike.
    ///
    /// One snapshot serves the frames of one call, which arrived together: as if they had
    /// been answered a moment earlier, never a mix of generations within a reply.
    package func answerFrames(
        from framer: inout MessageFramer, appendingTo output: inout [UInt8], outputLimit: Int
    ) -> Int {
        // A look first: a message of another kind costs no lock.
        guard framer.nextFrameKind == WireOperationKind.lookup.rawValue else { return 0 }
        var previous = DurationHistogram.now()
        let snapshot = store.snapshot
        let generation = snapshot.generation
        let histogram = counters.requestDurations(.lookup)
        // The language and table of the frame before, by their bytes in the framer's buffer
        // (which stays put meanwhile), and the probe they make: a burst most often asks one
        // of each, and a new one is asked of the cache, which keeps the last across bursts.
        var languageName = UnsafeRawBufferPointer(start: nil, count: 0)
        var tableName = UnsafeRawBufferPointer(start: nil, count: 0)
        var made: FrameProbeCache.Made?
        var found = 0
        let answered = framer.answerFrames { payload in
            guard output.count < outputLimit, let frame = BinaryLookupFrame(payload) else { return false }
            if made == nil || !Self.same(frame.language, languageName) || !Self.same(frame.table, tableName) {
                made = frameProbes.probe(generation: generation, language: frame.language, table: frame.table) {
                    guard let chain = try? self.chain([String(decoding: frame.language, as: UTF8.self)], in: snapshot)
                    else { return nil }
                    let probe = snapshot.segments.probe(String(decoding: frame.table, as: UTF8.self), chain: chain)
                    return FrameProbeCache.Made(
                        probe: probe, asked: probe.languages.map { chain.untranslatedLanguage(servedBy: $0) == nil })
                }
                guard made != nil else { return false }
                languageName = frame.language
                tableName = frame.table
            }
            // A segment's own entry in a language asked; a pseudo-language's derived one
            // goes the general way.
            guard let made, let hit = try? made.probe.find(frame.key), !hit.derived, made.asked[hit.candidate],
                let reader = made.probe.readers[hit.candidate], let value = try? reader.value(of: hit.number)
            else { return false }
            frame.appendReply(value: value, language: reader.languageBytes, generation: generation, to: &output)
            found += 1
            // One clock read per frame: each is timed from the end of the one before (or the
            // burst's start), which is when its decoding began.
            let now = DurationHistogram.now()
            histogram.record(nanoseconds: now - previous)
            previous = now
            return true
        }
        if found > 0 { counters.add(found, to: .found) }
        return answered
    }

    /// Whether two spans hold the same bytes.
    static func same(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        guard first.count == second.count else { return false }
        return first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0
    }

    /// Answers `map` at once with the current generation's segments (docs/PROTOCOL.md): the
    /// manifest, and the slabs they lie in, whose descriptors go with the reply. Nothing is
    /// compiled for it: the store built the segments at load or at the reload. A set that
    /// cannot be mapped (a segment in private memory, too many slabs) is `unavailable`, and
    /// the client asks per lookup. Anyone who may look strings up may map them, as with `table`.
    package func handleMap(from peer: PeerInfo, reply: @escaping @Sendable (WireReply, [SegmentSlab]) -> Void) {
        let started = DurationHistogram.now()
        defer { counters.requestDurations(.map).record(since: started) }
        let snapshot = store.snapshot
        // Every mapped client asks after each change: the manifest is made once per generation.
        if let kept = manifests.withLock({ $0 }), kept.generation == snapshot.generation {
            return reply(kept.reply, kept.slabs)
        }
        let made: (generation: UInt64, reply: WireReply, slabs: [SegmentSlab])
        do throws(WireError) {
            let (manifest, slabs) = try SegmentManifest.describing(snapshot.segments, generation: snapshot.generation)
            made = (snapshot.generation, .fields(manifest.fields), slabs)
        } catch {
            made = (snapshot.generation, .error(error), [])
        }
        manifests.withLock { $0 = made }
        reply(made.reply, made.slabs)
    }

    /// Refuses an operation that changes the daemon to anyone but root and its own user.
    private func requireAdministrator(for operation: WireOperation, _ peer: PeerInfo) throws(WireError) {
        guard administrators.contains(peer.uid) else {
            throw WireError(
                code: .forbidden,
                message:
                    "\(operation.name) is for root and the daemon's own user; user \(peer.uid) may only look strings up"
            )
        }
    }

    /// The fallback chain for a request's languages, from a small cache.
    func chain(_ languages: [String], in snapshot: ResourceSnapshot) throws(WireError) -> FallbackChain {
        try chains.chain(for: ChainKey(languages: languages, generation: snapshot.generation)) {
            () throws(WireError) -> FallbackChain in
            snapshot.segments.chain(try Self.tags(languages))
        }
    }

    /// The tags of a request's languages, each a tag or an `Accept-Language` list.
    private static func tags(_ languages: [String]) throws(WireError) -> [LanguageTag] {
        do { return try languages.flatMap(LanguageTag.preferences) } catch {
            throw WireError(code: .badRequest, message: "\(error)")
        }
    }

    /// One key; with a count the daemon selects the plural form, with one count per
    /// argument each variable's form by its own argument's count (docs/PLURALS.md says
    /// why); with `arguments`, also the finished string, its forms selected by the
    /// arguments' numbers unless `plural` says otherwise.
    func lookup(
        _ key: String, languages: [String], table: String?, plural: PluralCounts = .none,
        arguments: [FormatValue]? = nil
    ) throws(WireError) -> WireLookupResult {
        let snapshot = store.snapshot
        let chain = try chain(languages, in: snapshot)
        let values = arguments?.map(\.argument)
        let selection = plural == .none ? values.map(LocalizedFormatter.pluralCounts) ?? .none : plural
        let result = try Self.reading { () throws(SegmentError) in
            try snapshot.segments.lookup(key, in: table, chain: chain, plural: selection)
        }
        if result.found { counters.add(1, to: .found) }
        noteAnswer(result, key: key, chain: chain, languages: languages, table: table)
        return WireLookupResult(
            value: result.value, found: result.found, language: result.language?.identifier,
            generation: snapshot.generation,
            formatted: values.map { values in
                finished(
                    key, result, values, languages: languages, table: table, segments: snapshot.segments,
                    plural: selection)
            })
    }

    /// What `read` gives from the segments; a damaged segment (never one this daemon built
    /// and kept, but nothing wrong is silent) is an `internal` error naming it.
    private static func reading<Value>(_ read: () throws(SegmentError) -> Value) throws(WireError) -> Value {
        do { return try read() } catch {
            throw WireError(code: .internal, message: "a segment cannot be read: \(error)")
        }
    }

    /// The most a `batch` reply's values may come to (bytes): more is refused `too_large`,
    /// and the connection stays open.
    static let maximumBatchReplyBytes = 64 << 20

    func batch(
        _ keys: [String], languages: [String], table: String?, arguments: [[FormatValue]?]? = nil
    ) throws(WireError) -> WireBatchResult {
        let snapshot = store.snapshot
        let chain = try chain(languages, in: snapshot)
        let probe = snapshot.segments.probe(table, chain: chain)
        var values: [String] = []
        var found: [Bool] = []
        var formatted: [String?] = []
        values.reserveCapacity(keys.count)
        found.reserveCapacity(keys.count)
        var answered = 0
        // The request's size bounds how many keys it names, not how long their values are:
        // a megabyte of short keys each answered with a long value would make a reply of
        // gigabytes, and a failed allocation ends the process (Swift cannot catch it).
        var replyBytes = 0
        for (index, key) in keys.enumerated() {
            let keyArguments = arguments?[index]?.map(\.argument)
            let plural = keyArguments.map(LocalizedFormatter.pluralCounts) ?? .none
            let result = try Self.reading { () throws(SegmentError) in
                try probe.lookup(key, plural: plural)
            }
            values.append(result.value)
            found.append(result.found)
            replyBytes += result.value.utf8.count
            if arguments != nil {
                let text = keyArguments.map { keyArguments in
                    finished(
                        key, result, keyArguments, languages: languages, table: table,
                        segments: snapshot.segments, plural: plural)
                }
                replyBytes += text?.utf8.count ?? 0
                formatted.append(text)
            }
            guard replyBytes <= Self.maximumBatchReplyBytes else {
                throw WireError(
                    code: .tooLarge,
                    message:
                        "the answers to these \(keys.count) keys come to more than \(Self.maximumBatchReplyBytes >> 20) MiB; ask for fewer at a time"
                )
            }
            if result.found { answered += 1 }
            noteAnswer(result, key: key, chain: chain, languages: languages, table: table)
        }
        counters.add(answered, to: .found)
        return WireBatchResult(
            values: values, found: found, generation: snapshot.generation,
            formatted: arguments == nil ? nil : formatted)
    }

    /// `format` filled with `arguments` as the Swift library fills it
    /// (`Localizer.localized(_:arguments:)`): when the translation does not fit them, the
    /// development language's string, and as a last resort whatever can be filled.
    private func finished(
        _ key: String, _ result: LookupResult, _ arguments: [any CVarArg], languages: [String], table: String?,
        segments: SegmentSet, plural: PluralCounts
    ) -> String {
        LocalizedFormatter.finish(
            result.value, arguments, locale: LocalizedFormatter.locale(forPreferences: languages),
            pluralSelected: result.entry?.plural != nil,
            fallbackFormat: {
                // An empty preference list chains Base, then the development language.
                (try? segments.lookup(key, in: table, chain: segments.chain([]), plural: plural))?.value ?? key
            })
    }

    /// Reports a key the language asked for lacked: found nowhere (a miss), or answered by
    /// a fallback (what that language's users saw untranslated).
    private func noteAnswer(
        _ result: LookupResult, key: String, chain: FallbackChain, languages: [String], table: String?
    ) {
        guard result.found else { return recordMiss(key, languages: languages, table: table) }
        guard let served = result.language else { return }
        if let asked = chain.untranslatedLanguage(servedBy: served) {
            missing.record(
                language: asked, table: ResourceCatalog.tableName(table), key: key, servedBy: served.identifier)
        } else if Self.isEmptyValue(result), let asked = chain.askedForeignLanguage {
            // Served as it is (Xcode compiles an empty unit, `new` or not, and the app shows
            // ""), but no translation: coverage and lint count it untranslated, and so does this.
            missing.record(language: asked, table: ResourceCatalog.tableName(table), key: key)
        }
    }

    /// Whether `result` answered an empty, non-plural value.
    private static func isEmptyValue(_ result: LookupResult) -> Bool {
        result.value.isEmpty && result.entry?.plural == nil
    }

    func resolvedTable(languages: [String], table: String?) throws(WireError) -> WireTableResult {
        let snapshot = store.snapshot
        let chain = try chain(languages, in: snapshot)
        let resolved = try Self.reading { () throws(SegmentError) in
            try snapshot.segments.resolvedTable(table, chain: chain)
        }
        return WireTableResult(
            entries: resolved.mapValues(\.value),
            languages: resolved.compactMapValues { $0.language?.identifier },
            generation: snapshot.generation)
    }

    /// Drops from the missing-key report each key the current tables now answer in the
    /// language that missed it (found at all, for a key no language had; by that language
    /// itself, for one a fallback answered): called after a reload changed tables.
    func forgetAnsweredMisses() {
        let snapshot = store.snapshot
        missing.removeAll { language, table, key in
            guard let chain = try? chain([language], in: snapshot),
                let result = try? snapshot.segments.lookup(key, in: table, chain: chain, plural: .none),
                result.found, !Self.isEmptyValue(result)
            else { return false }
            return result.language.map { chain.untranslatedLanguage(servedBy: $0) == nil } ?? true
        }
    }

    func recordMiss(_ key: String, languages: [String], table: String?) {
        // A table no language has is a mistake in the request (`get --table Nope`), not a key
        // for translators to add: it is counted apart and kept out of the missing-key report.
        if store.snapshot.segments.segments[ResourceCatalog.tableName(table)] == nil {
            return counters.add(1, to: .unknownTables)
        }
        counters.add(1, to: .misses)
        let language = languages.first.flatMap { try? LanguageTag.preferences($0).first?.identifier } ?? ""
        missing.record(language: language, table: ResourceCatalog.tableName(table), key: key)
    }

    /// Empties the missing-key report and answers with what it held, so a monitor that
    /// reads and resets loses nothing noted in between. The counters are left alone, and the
    /// reply says so (`cleared`, `counters_reset`): they count since start, and zeroing
    /// them would break every rate a scraper computes from them.
    func reset() -> [String: WireValue] {
        let taken = missing.take()
        var fields = missingValue(taken.entries, dropped: taken.dropped)
        fields["cleared"] = .array([.string("missing")])
        fields["counters_reset"] = .bool(false)
        return fields
    }

    func languagesValue(_ snapshot: ResourceSnapshot) -> WireValue {
        .array(
            snapshot.segments.languages.map { language in
                .object([
                    "lang": .string(language.identifier),
                    "tables": .array(snapshot.segments.tableNames(of: language).map(WireValue.string)),
                ])
            })
    }

    /// The `missing` reply's members for a report's entries.
    func missingValue(_ entries: [MissingKeyReport.Entry], dropped: Int) -> [String: WireValue] {
        [
            "missing": .array(
                entries.map { entry in
                    .object(
                        [
                            "lang": .string(entry.language), "table": .string(entry.table),
                            "key": .string(entry.key), "count": .integer(Int64(entry.count)),
                        ].merging(entry.servedBy.map { ["from": .string($0)] } ?? [:]) { first, _ in first })
                }),
            "dropped": .integer(Int64(dropped)),
        ]
    }

    /// A parse error as `status` lists it.
    static func wireValue(_ error: ResourceParseError) -> WireValue {
        var fields: [String: WireValue] = [
            "file": error.location.file.map(WireValue.string) ?? .null,
            "line": .integer(Int64(error.location.line)),
            "column": .integer(Int64(error.location.column)),
            "message": .string(error.message),
        ]
        // An entry left out of a file that is served (the rest of it, not its last good text).
        if error.rule != nil { fields["left_out"] = .bool(true) }
        return .object(fields)
    }

    /// A table change as events and `reload` list it.
    static func wireValue(_ change: TableChange) -> WireValue {
        .object(["lang": .string(change.language), "table": .string(change.table)])
    }
}
