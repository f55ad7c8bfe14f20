import Dispatch
import Foundation
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import TestSupport
import Testing

@testable import Localization

/// Outside testers, with 10 languages × 100,000 keys: for the first seconds after l10nd
/// started, a new process's first lookup took 0.9–1.3 s (it waited for the whole `table`
/// its cached way fetches, resolved while the daemon compiled), so with a 1 s limit about
/// half returned the bare key. Here the daemon's `table` replies and compiles are held for
/// as long as the test needs, standing for that slowness without timing it: the first
/// lookups must still be the daemon's answers, and the table must answer once released.
@Suite struct HeldTableFetchTests {
    /// l10nd's request path in this process: the real store, service and socket server on a
    /// fresh socket, with the service at hand to hold its `table` replies and compiles.
    final class InProcessDaemon {
        let directory: TemporarySocketDirectory
        let service: LookupService
        let server: SocketServer

        init(resources: String) throws {
            directory = try TemporarySocketDirectory()
            let store = ResourceStore(roots: [resources], developmentLanguage: LanguageTag(language: "en"))
            _ = store.rescan()
            service = LookupService(
                store: store, missing: MissingKeyReport(), counters: DaemonCounters(),
                actions: LookupService.Actions(reload: { done in done(store.rescan()) }, status: { nil }),
                administrators: [])
            server = SocketServer(listener: try SocketListener(path: directory.socketPath), handler: service)
            server.start()
        }

        var socketPath: String { directory.socketPath }

        /// Stops the server and waits for it (at most 30 s).
        func stop() {
            let stopped = DispatchSemaphore(value: 0)
            server.stop { stopped.signal() }
            _ = stopped.wait(timeout: .now() + 30)
        }
    }

    @Test(arguments: [LookupMode.cached, .mapped])
    func aNewClientsFirstLookupsAreAnsweredWhileItsTableIsHeld(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"value\";\n\"other\" = \"another\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try InProcessDaemon(resources: resources.path)
        defer { daemon.stop() }
        let release = daemon.service.holdTablesAndCompiles()
        defer { release() }
        let localizer = Localizer(environment: [:], log: { _ in })
        // Far longer than a round trip takes on a loaded machine: a lookup that waited for
        // the held table would fail at this limit and answer with the key.
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 5)
        defer { localizer.useEmbedded() }

        let first = localizer.lookupWithSource("k", languages: ["ja"])
        #expect(first.result.value == "value" && first.source == .daemon, "\(first)")
        #expect(localizer.value("other", languages: .one("ja"), table: nil) == "another")
        #expect(localizer.lookup("absent", languages: ["ja"]).found == false)
        #expect(localizer.source == .daemon)

        // Released, the table (or the mapped generation) arrives and answers in the process.
        release()
        let key = ResolvedTable.Key(languages: ["ja"], table: "Localizable")
        #expect(
            eventually {
                localizer.daemon?.cache.table(for: key) != nil || localizer.daemon?.mapped.current != nil
            }, "neither the table nor the generation arrived")
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "value")
    }
}
