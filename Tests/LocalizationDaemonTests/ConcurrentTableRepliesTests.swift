import Dispatch
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import Synchronization
import TestSupport
import Testing

/// Outside testers: a new cached-mode client asking for ten languages' 100,000-key tables at
/// once got them one after another (about a second each), since the daemon answered `table`
/// requests one at a time. One request is held here, with the service's hook, for as long
/// as the test needs: another language's table must be answered meanwhile, and so must a
/// lookup.
@Suite struct ConcurrentTableRepliesTests {
    final class Replies: Sendable {
        private let replies = Mutex<[WireReply]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func record(_ reply: WireReply) {
            replies.withLock { $0.append(reply) }
            arrived.signal()
        }

        /// The first reply, waiting at most `seconds` for it.
        func first(within seconds: Double) -> WireReply? {
            guard arrived.wait(timeout: .now() + seconds) == .success else { return nil }
            return replies.withLock { $0.first }
        }
    }

    @Test func anotherLanguagesTableAndLookupsAreAnsweredWhileOneTableIsHeld() throws {
        let root = try TemporaryDirectory()
        try root.write(#""k" = "ja value";"#, to: "ja.lproj/Localizable.strings")
        try root.write(#""k" = "en value";"#, to: "en.lproj/Localizable.strings")
        let store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
        _ = store.rescan()
        let held = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        let service = LookupService(
            store: store, missing: MissingKeyReport(), counters: DaemonCounters(),
            actions: LookupService.Actions(reload: { done in done(store.rescan()) }, status: { nil }),
            administrators: [],
            beginningTable: { languages in
                guard languages == ["ja"] else { return }
                holding.signal()
                held.wait()
            })
        let peer = PeerInfo(pid: 1, uid: 1000, gid: 1000)
        let japanese = Replies()
        service.handle(
            WireRequest(operation: .table(languages: ["ja"], table: nil)), from: peer, reply: japanese.record)
        #expect(holding.wait(timeout: .now() + 30) == .success, "the Japanese table was never begun")
        defer { held.signal() }

        // Far longer than either takes on a loaded machine: answered one after another, the
        // English table would wait for the Japanese one until it is released below.
        let english = Replies()
        service.handle(WireRequest(operation: .table(languages: ["en"], table: nil)), from: peer, reply: english.record)
        guard case .table(let table)? = english.first(within: 20) else {
            Issue.record("the English table waited for the Japanese one")
            return
        }
        #expect(table.entries == ["k": "en value"])
        let lookup = service.answerAtOnce(
            WireRequest(operation: .lookup(key: "k", languages: ["ja"], table: nil)), from: peer)
        guard case .lookup(let result)? = lookup else {
            Issue.record("no lookup answer: \(String(describing: lookup))")
            return
        }
        #expect(result.value == "ja value")
        #expect(japanese.first(within: 0) == nil)

        held.signal()
        guard case .table(let heldTable)? = japanese.first(within: 30) else {
            Issue.record("the Japanese table never came")
            return
        }
        #expect(heldTable.entries == ["k": "ja value"])
    }
}
