import Foundation
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import TestSupport
import Testing

/// A `batch` request is at most a megabyte, but its answers are as long as the values it
/// names: a megabyte of keys answered with long values would be a reply of gigabytes, and a
/// failed allocation ends the daemon. Past 64 MiB of values the batch is refused
/// `too_large`, and what is under it is answered.
@Suite struct BatchReplyBoundTests {
    @Test func aBatchWhoseAnswersWouldBeHugeIsRefusedNotAllocated() throws {
        let root = try TemporaryDirectory()
        let long = String(repeating: "x", count: 1 << 20)
        try root.write("\"long\" = \"\(long)\";\n\"short\" = \"s\";\n", to: "en.lproj/Localizable.strings")
        let store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
        store.rescan()
        let service = LookupService(
            store: store, missing: MissingKeyReport(), counters: DaemonCounters(),
            actions: LookupService.Actions(reload: { done in done(store.rescan()) }, status: { nil }),
            administrators: [0])
        let peer = PeerInfo(pid: 1, uid: 1000, gid: 1000)
        func batch(_ keys: [String]) -> WireReply? {
            service.answerAtOnce(WireRequest(operation: .batch(keys: keys, languages: ["en"], table: nil)), from: peer)
        }
        guard case .batch(let fits) = batch(Array(repeating: "long", count: 63) + ["short"]) else {
            Issue.record("a batch of 63 MiB was not answered")
            return
        }
        #expect(fits.values.count == 64 && fits.values.last == "s")
        guard case .error(let error) = batch(Array(repeating: "long", count: 65)) else {
            Issue.record("a batch of 65 MiB was answered")
            return
        }
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.message == "the answers to these 65 keys come to more than 64 MiB; ask for fewer at a time")
    }
}
