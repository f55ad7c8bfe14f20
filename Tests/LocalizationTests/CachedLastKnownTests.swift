import Foundation
import Glibc
import TestSupport
import Testing

@testable import Localization

/// Mapped mode's last known answers outlive a reconnection or a `reload()`: a daemon that
/// stops answering right after one gives way to the generation it mapped before (immutable,
/// still mapped), not to the keys.
@Suite struct CachedLastKnownTests {
    /// A localizer that has mapped `daemon`'s generation of `k` = `value`.
    static func mappedLocalizer(_ daemon: DaemonProcess) -> Localizer {
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: .mapped, timeout: 0.3)
        // Mapped once the daemon's compile at load is done, by a lookup (as a program's next one).
        #expect(
            eventually {
                localizer.value("k", languages: .one("ja"), table: nil) == "value"
                    && localizer.daemon?.mapped.current != nil
            }, "never mapped")
        return localizer
    }

    @Test func aDaemonHungAfterAReloadLeavesTheEarlierGeneration() throws {
        let resources = try TemporaryDirectory()
        try resources.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Self.mappedLocalizer(daemon)
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        localizer.reload()
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "value")
        #expect(localizer.lookupWithSource("k", languages: ["ja"]).source == .lastKnown)
        #expect(localizer.lookup("k", languages: ["ja"]).value == "value")
    }

    /// Outside testers: with the daemon stopped and the earlier tables answering, `source`
    /// said `daemon` (the connection was still up). It says what answers, and `daemon`
    /// again once the daemon does.
    @Test func sourceSaysLastKnownWhileTheEarlierGenerationAnswers() throws {
        let resources = try TemporaryDirectory()
        try resources.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Self.mappedLocalizer(daemon)
        #expect(localizer.source == .daemon)
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        localizer.reload()
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
