import Dispatch
import LocalizationCore
import LocalizationWire
import Synchronization

/// A ``Localizer``'s link to `l10nd` in mapped or direct mode: the one connection, the
/// mapped generations (mapped mode: `map` is asked on that same connection when it is up
/// and after each `changed` event), the remembered round-trip answers and the miss reporter.
/// Replaced as a whole when the localizer is configured again, and in a child made by
/// `fork()` (``isInherited``).
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

    /// The protocol minor version whose `map` hands out segments (1.6; 1.5's was the whole
    /// generation in one buffer): an older daemon is asked per lookup.
    static let mapMinorVersion = 6

    /// The most round-trip answers (direct mode, counts, several languages, or while no
    /// generation is mapped) remembered for when the daemon goes away.
    static let rememberedCapacity = 10_000

    let mode: LookupMode
    let client: LocalizationClient
    let mapped: MappedGenerations
    let misses: MissReporter
    /// Told when a new generation is mapped: lookups then move to it.
    private let onMapped: @Sendable () -> Void
    /// Round-trip answers, with the generation that gave each and the connection it came on
    /// (``MappedGenerations/connectionNumber``).
    private let remembered = ForkSafeMutex<[Question: (result: LookupResult, generation: UInt64, connection: Int)]>(
        [:])
    /// This link, for the connection's event handler, which is made before it.
    private let owner = Owner()
    /// Whether the daemon answers (``isAnswering``). ``Localizer/source`` reads it, so that it
    /// says `lastKnown` (or `files`), not `daemon`, on a connection that is up but whose daemon
    /// answers nothing (stopped, not yet given up on); a daemon answering other requests while
    /// one slow reply is on its way is answering, so `source` does not flap under load.
    private let answering = Answering()
    /// The connected daemon's protocol minor version, from its `hello`: before 1.3 a
    /// lookup cannot carry `counts`.
    private let daemonMinorVersion = ProtocolMinorVersion()

    /// Reaches the link from the connection's event handler, which is made before it.
    private final class Owner: Sendable {
        private let link = ForkSafeMutex<Weak>(Weak())
        private struct Weak { weak var lookups: DaemonLookups? }
        var lookups: DaemonLookups? {
            get { link.withLock { $0.lookups } }
            set { link.withLock { $0.lookups = newValue } }
        }
    }

    /// Connects (first attempt before returning); `onEvent` hears every connection event
    /// after the mapped generations have applied it, `onMapped` every generation mapped.
    /// `lastKnown` answers as an earlier connection's last generation until one is mapped.
    init(
        socketPath: String?, mode: LookupMode, timeout: Double, lastKnown: LookupSegments? = nil,
        onEvent: @escaping @Sendable (LocalizationClient.Event) -> Void,
        onMapped: @escaping @Sendable () -> Void = {}
    ) {
        self.onMapped = onMapped
        let mapped = MappedGenerations(lastKnown: lastKnown)
        let daemonMinorVersion = self.daemonMinorVersion
        let answering = self.answering
        let owner = self.owner
        self.mapped = mapped
        self.mode = mode
        client = LocalizationClient(socketPath: socketPath, timeout: timeout, subscribe: true) { event in
            switch event {
            case .connected(let hello):
                mapped.reset()
                answering.noteConnected()
                let minor = hello["protocol"]?["minor"]?.integerValue.map { Int(clamping: $0) }
                daemonMinorVersion.value.store(minor ?? 0, ordering: .relaxed)
                owner.lookups?.requestMap()
                // Misses held while the daemon was away go now (the reporter never retries meanwhile).
                owner.lookups?.misses.connectionIsUp()
            case .changed(let generation, _):
                answering.noteReply()
                // The old generation stops answering at once (lookups ask the daemon until the
                // new one is mapped), before `onEvent` moves the epoch.
                mapped.invalidate(generation: generation)
                owner.lookups?.requestMap()
            case .disconnected: break  // the generations stay: they are the last known answers
            }
            onEvent(event)
        }
        misses = MissReporter(sendingThrough: client)
        owner.lookups = self
        // The first connection was up before the handler could reach this link.
        if client.isConnected { requestMap() }
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
            try client.submit(.languages, timeLimit: nil, background: true) { result in
                if case .success = result { answering.noteReply() }
                answering.probing.store(false, ordering: .relaxed)
            }
        } catch {
            answering.probing.store(false, ordering: .relaxed)
        }
    }

    /// Notes that the daemon answered a request.
    private func noteAnswered() { answering.noteReply() }

    /// Notes that a request a lookup needed, sent at `sent` (uptime nanoseconds), went
    /// unanswered in the lookup's time limit: the lookup is answered by a fallback. A
    /// request the daemon answered something after says nothing (it is busy, not gone).
    private func noteUnanswered(sent: UInt64) {
        let lastReply = answering.lastReply.load(ordering: .relaxed)
        guard lastReply <= sent else { return }
        // The oldest such request since the daemon last said something: one answered before
        // it no longer counts.
        let current = answering.unansweredSince.load(ordering: .relaxed)
        if current == 0 || current < lastReply || current > sent {
            answering.unansweredSince.store(sent, ordering: .relaxed)
        }
        // A daemon that is only busy says so at the probe's reply.
        probe()
    }

    /// Whether lookups read mapped tables: mapped mode, with a daemon that has `map`.
    var mapsTables: Bool {
        mode == .mapped && daemonMinorVersion.value.load(ordering: .relaxed) >= Self.mapMinorVersion
    }

    /// Whether this link was inherited from a parent across `fork()`: its connection is the
    /// parent's, and the child needs a link of its own.
    var isInherited: Bool { client.isInherited }

    /// Asks `map` on the lookups' own connection, without waiting, unless the current
    /// generation is mapped or a `map` is in flight (which then asks again when it ends):
    /// when a connection is up, and at each `changed` event. The reply is handled wherever it
    /// is read (the connection thread): the generation is mapped and kept if no newer event
    /// came meanwhile, and the localizer's epoch moves to it.
    func requestMap() {
        guard mapsTables, let connectionNumber = mapped.beginMap() else { return }
        do {
            // `map` never waits on the daemon's side: the lookups' own time limit.
            try client.submit(.map, timeLimit: client.timeout, background: true) {
                [weak self] result in
                self?.mapReplied(result, onConnection: connectionNumber)
            }
        } catch {
            // No connection: the next one asks again.
            _ = mapped.endMap(nil, onConnection: connectionNumber, refused: false)
        }
    }

    /// Keeps the generation a `map` reply carried (checked and mapped by the reader).
    private func mapReplied(_ result: Result<WireReply, DaemonConnectionError>, onConnection connectionNumber: Int) {
        var segments: LookupSegments?
        var refused = false
        if case .success(let reply) = result {
            noteAnswered()
            if case .fields(let fields) = reply, let number = fields["mapping"]?.integerValue {
                segments = ReceivedMappings.take(number)
            }
            // Refused, or the descriptors failed their checks: not asked again on this connection.
            refused = segments == nil
        }
        let outcome = mapped.endMap(segments, onConnection: connectionNumber, refused: refused)
        if outcome.kept { onMapped() }
        if outcome.askAgain { requestMap() }
    }

    /// One `lookup` round trip (within `timeLimit` seconds, default the client's), the daemon
    /// selecting plural forms as `plural` says; `nil` when the daemon failed.
    func lookup(
        _ key: String, languages: [String], table: String, plural: PluralCounts, timeLimit: Double? = nil
    ) -> LookupResult? {
        let operation = Self.lookupOperation(
            key, languages: languages, table: table, plural: plural,
            daemonMinorVersion: daemonMinorVersion.value.load(ordering: .relaxed))
        let sent = DispatchTime.now().uptimeNanoseconds
        // A reply comes on the connection it was sent on, and is read after that connection's
        // `connected` event has bumped the number: unchanged across the round trip, the
        // number is the reply's connection.
        let connection = mapped.connectionNumber
        guard case .lookup(let reply)? = try? client.send(operation, timeout: timeLimit) else {
            noteUnanswered(sent: sent)
            return nil
        }
        noteAnswered()
        let result = LookupResult(
            value: reply.value, found: reply.found, language: reply.language.flatMap { try? LanguageTag($0) },
            entry: nil)
        // For when the daemon goes away: every round trip's answer (the mapped generation
        // kept answers the others), unless a new connection came meanwhile, which leaves the
        // reply's own unknown.
        guard mapped.connectionNumber == connection else { return result }
        remembered.withLock { remembered in
            if remembered.count >= Self.rememberedCapacity { remembered.removeAll(keepingCapacity: true) }
            remembered[Question(key: key, languages: languages, table: table, plural: plural)] = (
                result, reply.generation, connection
            )
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

    /// What the daemon last said about `key` asked with `plural`: the newer of its remembered
    /// answer to that very question and the newest mapped generation kept — immutable, so
    /// never a mix of two generations. An answer from a later connection is the newer
    /// whatever the generation numbers say: a restarted daemon counts them anew.
    func lastKnown(
        _ key: String, languages: [String], table: String, plural: PluralCounts = .none
    ) -> LookupResult? {
        let question = Question(key: key, languages: languages, table: table, plural: plural)
        let answer = remembered.withLock { $0[question] }
        let newest = mapped.newestKept
        if let answer,
            (answer.connection, answer.generation) > (newest?.connection ?? -1, newest?.segments.generation ?? 0)
        {
            return answer.result
        }
        guard let kept = newest?.segments else { return answer?.result }
        let result = kept.lookup(
            key, tags: languages.compactMap { try? LanguageTag($0) }, table: table, plural: plural)
        return result.found ? result : answer?.result
    }

    /// The languages the daemon serves (a `languages` request); `nil` when it failed.
    func languages() -> [LanguageTag]? {
        languageList()?.compactMap { $0["lang"]?.stringValue.flatMap { try? LanguageTag($0) } }
    }

    /// The table names the daemon serves in any language, sorted (one `languages` request).
    func tables() -> [String]? {
        languageList().map { list in
            Set(list.flatMap { ($0["tables"]?.arrayValue ?? []).compactMap(\.stringValue) }).sorted()
        }
    }

    /// The `languages` reply's list: `{lang, tables}` per language.
    private func languageList() -> [WireValue]? {
        guard case .fields(let fields)? = try? client.send(.languages), let list = fields["languages"]?.arrayValue
        else { return nil }
        noteAnswered()
        return list
    }

    /// Whether `result`, found for the preferences `tags`, came from a fallback (a language
    /// other than the first preference's own): the reader saw it untranslated, and the
    /// missing-key report lists it, as the daemon lists its own lookups' fallback answers.
    static func isFallback(_ result: LookupResult, for tags: [LanguageTag], developmentLanguage: LanguageTag) -> Bool {
        guard result.found, let served = result.language, served != tags.first else { return false }
        let chain = FallbackChain(preferred: tags, developmentLanguage: developmentLanguage)
        return chain.untranslatedLanguage(servedBy: served) != nil
    }

    /// Stops the connection and sends the misses still waiting.
    func close() {
        misses.flush()
        client.close()
    }
}
