import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Mapped mode when the daemon stops answering right after it announced a reload (stopped
/// with SIGSTOP): the `map` the event asked and the lookups behind it get no reply until it is
/// continued. A lookup never waits longer than the time limit, never returns a bare key for a
/// key that had a value (the generation mapped before stays as the last known answers), and
/// the new value shows once the daemon answers. (A lookup past its limit replaces the one
/// connection, as direct mode's always did; cached mode's separate `table` connection, whose
/// lateness did not, is gone.)
@Suite struct SlowTableFetchTests {
    static let timeout = 0.3
    /// What a lookup may take beyond the time limit on a loaded machine.
    static let slack = 0.5

    @Test func anEditWhoseMapOutlastsTheTimeLimitKeepsTheOldValue() throws {
        let mode = LookupMode.mapped
        let set = try MappedModeFallbackTests.LargeSet()
        let daemon = try DaemonProcess(resources: [set.resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: Self.timeout)
        let changed = Atomic<Bool>(false)
        let observation = localizer.onChange { change in
            if change.generation != nil { changed.store(true, ordering: .relaxed) }
        }
        defer { observation.cancel() }
        try MappedModeFallbackTests.waitUntilMapped(localizer)
        #expect(localizer.value("k", languages: .one("en"), table: nil) == "english")

        try set.edit("new")
        #expect(ClientDaemonTests.wait(seconds: 10) { changed.load(ordering: .relaxed) }, "no change event")
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        // Old (or new, had the `map` come before the stop), never the key, never slower
        // than the limit; the English table, which the edit did not touch, answers as before.
        let (wrong, slowest) = MappedModeFallbackTests.lookUp(localizer, allowing: ["old", "new"], for: 1.5) {
            false
        }
        #expect(wrong.isEmpty, "answers other than old or new: \(Set(wrong))")
        #expect(slowest < Self.timeout + Self.slack, "a lookup took \(slowest) s")
        #expect(localizer.value("k", languages: .one("en"), table: nil) == "english")
        #expect(localizer.lookup("k", languages: ["en"]).value == "english")

        daemon.send(signal: SIGCONT)
        let (after, _) = MappedModeFallbackTests.lookUp(localizer, allowing: ["old", "new"], for: 60) {
            localizer.value("k", languages: .one("ja"), table: nil) == "new"
                && localizer.lookup("k", languages: ["ja"]).value == "new"
        }
        #expect(after.isEmpty, "after the daemon went on: \(Set(after))")
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "new")
        #expect(localizer.lookup("k", languages: ["ja"]).value == "new")
    }

    /// A process's first lookups against a daemon that does not answer them in time: each
    /// waits at most the limit, and once one has outlasted it, not at all.
    @Test func firstLookupsOfASlowDaemonWaitOnceAtMost() throws {
        let mode = LookupMode.mapped
        let set = try MappedModeFallbackTests.LargeSet(keys: 10)
        let daemon = try DaemonProcess(resources: [set.resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: Self.timeout)
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        var started = Date()
        // Nothing known yet, or the generation mapped before the stop.
        #expect(["k", "old"].contains(localizer.value("k", languages: .one("ja"), table: nil)))
        let first = Date().timeIntervalSince(started)
        #expect(first < Self.timeout + Self.slack, "the first lookup took \(first) s")
        started = Date()
        for _ in 0..<100 { _ = localizer.lookup("k", languages: ["ja"]) }
        let hundred = Date().timeIntervalSince(started)
        #expect(hundred < Self.slack, "100 lookups after the limit took \(hundred) s")

        daemon.send(signal: SIGCONT)
        #expect(
            ClientDaemonTests.wait(seconds: 30) { localizer.value("k", languages: .one("ja"), table: nil) == "old" },
            "the answer never came")
    }
}
