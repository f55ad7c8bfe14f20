import Foundation
import LocalizationCore
import LocalizationDaemon
import TestSupport
import Testing

@testable import Localization

/// Outside tester, cached mode under load: after an edit, `source` flipped between `daemon`
/// and `lastKnown` 299 times in 8 s while the daemon answered (each table refetch late for
/// one lookup said `lastKnown`, each reply to another said `daemon`). A daemon that answers
/// something since the late request was sent is answering: `source` says `daemon`, steadily.
/// The held `table` replies stand for the slow refetch, without timing it.
@Suite struct BusyDaemonSourceTests {
    @Test(arguments: [LookupMode.cached, .mapped])
    func aDaemonAnsweringWhileATableIsLateIsTheSource(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try HeldTableFetchTests.InProcessDaemon(resources: resources.path)
        defer { daemon.stop() }
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 0.3)
        defer { localizer.useEmbedded() }
        let key = ResolvedTable.Key(languages: ["ja"], table: "Localizable")
        #expect(
            eventually {
                localizer.value("k", languages: .one("ja"), table: nil) == "value"
                    && (localizer.daemon?.cache.table(for: key) != nil || localizer.daemon?.mapped.current != nil)
            }, "neither the table nor the generation arrived")
        let release = daemon.service.holdTablesAndCompiles()
        defer { release() }
        // Refetched, and held: the earlier copy answers meanwhile.
        localizer.reload()
        for round in 0..<4 {
            let answer = localizer.lookupWithSource("k", languages: ["ja"])
            #expect(answer.result.value == "value" && answer.source == .lastKnown, "\(answer)")
            // The daemon answers all but the held table: `daemon` from its first word since
            // the table was asked (a probe's reply), and from then on.
            if round == 0 {
                #expect(eventually { localizer.source == .daemon }, "the daemon answers, source says otherwise")
            } else {
                #expect(localizer.source == .daemon, "round \(round)")
            }
        }
        release()
        #expect(
            eventually {
                localizer.lookupWithSource("k", languages: ["ja"]).source == .daemon && localizer.source == .daemon
            })
    }
}
