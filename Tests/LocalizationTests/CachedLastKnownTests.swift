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
}
