import Foundation
import Glibc
import TestSupport
import Testing

@testable import Localization

/// Cached and mapped mode's last known answers outlive the cache being emptied: a daemon
/// that stops answering right after a reconnection or a `reload()` gives way to the tables
/// (or the mapped generation) it gave before, not to the keys.
@Suite struct CachedLastKnownTests {
    @Test(arguments: [LookupMode.cached, .mapped])
    func aDaemonHungAfterAReloadLeavesTheEarlierTables(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 0.3)
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "value")
        if mode == .mapped {
            let deadline = Date().addingTimeInterval(10)
            while localizer.daemon?.mapped.current == nil, Date() < deadline { usleep(5_000) }
            #expect(localizer.daemon?.mapped.current != nil, "never mapped")
        }
        localizer.reload()
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "value")
        #expect(localizer.lookupWithSource("k", languages: ["ja"]).source == .lastKnown)
        #expect(localizer.lookup("k", languages: ["ja"]).value == "value")
    }

    /// Outside testers: with the daemon stopped and the earlier tables answering, `source`
    /// said `daemon` (the connection was still up). It says what answers, and `daemon`
    /// again once the daemon does.
    @Test(arguments: [LookupMode.cached, .mapped])
    func sourceSaysLastKnownWhileTheEarlierTablesAnswer(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 0.3)
        #expect(
            eventually {
                localizer.value("k", languages: .one("ja"), table: nil) == "value"
                    && (localizer.daemon?.cache.table(for: ResolvedTable.Key(languages: ["ja"], table: "Localizable"))
                        != nil || localizer.daemon?.mapped.current != nil)
            }, "neither the table nor the generation arrived")
        #expect(localizer.source == .daemon)
        localizer.reload()
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        let answer = localizer.lookupWithSource("k", languages: ["ja"])
        #expect(answer.result.value == "value" && answer.source == .lastKnown, "\(answer)")
        #expect(localizer.source == .lastKnown)

        daemon.send(signal: SIGCONT)
        #expect(
            eventually {
                localizer.lookupWithSource("k", languages: ["ja"]).source == .daemon && localizer.source == .daemon
            }, "the source did not return to the daemon")
    }
}
