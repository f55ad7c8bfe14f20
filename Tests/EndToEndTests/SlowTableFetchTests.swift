import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Cached and mapped mode when the daemon's `table` answer takes longer than the client's time
/// limit, as an outside tester met it (a whole table of 10 × 100,000 strings resolved by a
/// loaded daemon takes about a second). Here a daemon stopped with SIGSTOP right after it
/// announced a reload stands for that slow answer: it gives no `table` reply until it is
/// continued. A lookup never waits longer than the time limit, never returns a bare key for a
/// key that had a value (the invalidated table stays as the last known answers), the slow
/// fetch is asked once rather than per lookup, its lateness does not end the connection, and
/// the new value shows once the daemon answers.
@Suite struct SlowTableFetchTests {
    static let timeout = 0.3
    /// What a lookup may take beyond the time limit on a loaded machine.
    static let slack = 0.5

    @Test(arguments: [LookupMode.cached, .mapped])
    func anEditWhoseRefetchOutlastsTheTimeLimitKeepsTheOldValue(mode: LookupMode) throws {
        // Mapped mode: the edit's generation compiles for seconds, so lookups go the cached way.
        let set = try MappedModeFallbackTests.LargeSet()
        let daemon = try DaemonProcess(resources: [set.resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: Self.timeout)
        let changed = Atomic<Bool>(false)
        let observation = localizer.onChange { change in
            if change.generation != nil { changed.store(true, ordering: .relaxed) }
        }
        defer { observation.cancel() }
        if mode == .mapped {
            try MappedModeFallbackTests.waitUntilMapped(localizer)
        } else {
            #expect(
                ClientDaemonTests.wait(seconds: 10) { localizer.value("k", languages: .one("ja"), table: nil) == "old" }
            )
        }
        #expect(localizer.value("k", languages: .one("en"), table: nil) == "english")
        let connection = localizer.daemon?.cache.connectionNumber

        try set.edit("new")
        #expect(ClientDaemonTests.wait(seconds: 10) { changed.load(ordering: .relaxed) }, "no change event")
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        // Old (or new, had the refetch come before the stop), never the key, never slower
        // than the limit; the English table, which the edit did not touch, answers as before.
        let (wrong, slowest) = MappedModeFallbackTests.lookUp(localizer, allowing: ["old", "new"], for: 1.5) {
            false
        }
        #expect(wrong.isEmpty, "answers other than old or new: \(Set(wrong))")
        #expect(slowest < Self.timeout + Self.slack, "a lookup took \(slowest) s")
        #expect(localizer.value("k", languages: .one("en"), table: nil) == "english")
        #expect(localizer.lookup("k", languages: ["en"]).value == "english")
        // Late fetches did not count as the daemon being gone: the connection is the same,
        // and still up.
        #expect(localizer.daemon?.cache.connectionNumber == connection)
        #expect(localizer.daemon?.client.isConnected == true, "a late table fetch ended the connection")

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
    /// waits at most the limit, and once the one fetch has outlasted it, not at all.
    @Test(arguments: [LookupMode.cached, .mapped])
    func firstLookupsOfASlowDaemonWaitOnceAtMost(mode: LookupMode) throws {
        let set = try MappedModeFallbackTests.LargeSet(keys: 10)
        let daemon = try DaemonProcess(resources: [set.resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: Self.timeout)
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        var started = Date()
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "k")  // nothing known yet
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
