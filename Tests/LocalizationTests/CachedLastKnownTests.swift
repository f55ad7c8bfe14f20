import Foundation
import Glibc
import TestSupport
import Testing

@testable import Localization

/// Cached mode's last known answers outlive the cache being emptied: a daemon that stops
/// answering right after a reconnection or a `reload()` gives way to the tables it gave
/// before, not to the keys.
@Suite struct CachedLastKnownTests {
    @Test func aDaemonHungAfterAReloadLeavesTheEarlierTables() throws {
        let resources = try TemporaryDirectory()
        try resources.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: .cached, timeout: 0.3)
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "value")
        localizer.reload()
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "value")
        #expect(localizer.lookupWithSource("k", languages: ["ja"]).source == .lastKnown)
        #expect(localizer.lookup("k", languages: ["ja"]).value == "value")
    }
}
