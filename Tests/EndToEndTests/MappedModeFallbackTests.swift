import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Mapped mode while a generation is not mapped yet, as an outside tester attacked it: a
/// daemon compiling a large set for seconds, a reload whose `map` outlasts the client's time
/// limit, a daemon killed meanwhile. A lookup never waits longer than the time limit, and never
/// returns a bare key for a key the last mapped generation had: the daemon answers it (a round
/// trip on the one connection), else the process's own mapping of the last generation.
@Suite struct MappedModeFallbackTests {
    /// A set whose compile takes seconds in a debug build (tens of thousands of strings in two
    /// languages, in a table nobody looks up), beside the small table the lookups read.
    struct LargeSet {
        let resources: TemporaryDirectory
        let japanese: String

        init(keys: Int = 20_000) throws {
            resources = try TemporaryDirectory(prefix: "l10nd-mapped-large")
            for language in ["en", "ja"] {
                let lines = (0..<keys).map {
                    "\"key\($0)\" = \"\(language) \($0) \(String(repeating: "x", count: 40))\";\n"
                }
                try resources.write(lines.joined(), to: "\(language).lproj/Large.strings")
            }
            try resources.write("\"k\" = \"english\";\n", to: "en.lproj/Localizable.strings")
            japanese = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        }

        func edit(_ value: String) throws {
            try "\"k\" = \"\(value)\";\n".write(toFile: japanese, atomically: true, encoding: .utf8)
        }
    }

    static func localizer(_ socketPath: String, timeout: Double) -> Localizer {
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: socketPath, mode: .mapped, timeout: timeout)
        return localizer
    }

    static func mappedGeneration(_ localizer: Localizer) -> UInt64? {
        localizer.daemon?.mapped.current?.generation
    }

    /// Waits for generation 1 to be mapped (the lookups begin it), then checks it answers.
    static func waitUntilMapped(_ localizer: Localizer) throws {
        // Before it is, on a loaded machine a lookup may pass the short time limit with nothing
        // known yet, and return its key: not what these tests are about.
        try #require(
            ClientDaemonTests.wait(seconds: 120) {
                _ = localizer.value("k", languages: .one("ja"), table: nil)
                return mappedGeneration(localizer) == 1
            }, "never mapped")
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "old")
    }

    /// Looks "k" up in Japanese both ways (the thread cache's `localized` and `lookup`) until
    /// `done` or `seconds` pass; returns every answer that was not one of `allowed`, and the
    /// slowest call.
    static func lookUp(
        _ localizer: Localizer, allowing allowed: Set<String>, for seconds: Double, until done: () -> Bool
    ) -> (wrong: [String], slowest: Double) {
        var wrong: [String] = []
        var slowest = 0.0
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !done() {
            for hotPath in [true, false] {
                let started = Date()
                let value =
                    hotPath
                    ? localizer.value("k", languages: .one("ja"), table: nil)
                    : localizer.lookup("k", languages: ["ja"]).value
                slowest = max(slowest, Date().timeIntervalSince(started))
                if !allowed.contains(value) { wrong.append(value) }
            }
            usleep(10_000)
        }
        return (wrong, slowest)
    }

    @Test func theFirstLookupDoesNotWaitForTheCompile() throws {
        let set = try LargeSet(keys: 30_000)
        let daemon = try DaemonProcess(resources: [set.resources.path])
        let timeout = 1.0
        let localizer = Self.localizer(daemon.socketPath, timeout: timeout)
        // The daemon compiled the generation at load, before it listened: the `map` asked when
        // the connection came up is answered at once, and the lookups behind it with it.
        var started = Date()
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "old")
        let first = Date().timeIntervalSince(started)
        started = Date()
        #expect(localizer.lookup("k", languages: ["ja"]).value == "old")
        let second = Date().timeIntervalSince(started)
        #expect(first < timeout + 1 && second < timeout + 1, "lookups took \(first) s and \(second) s")
        // Mapped in the background; the lookups move to it.
        let (wrong, slowest) = Self.lookUp(localizer, allowing: ["old"], for: 120) {
            Self.mappedGeneration(localizer) == 1
        }
        #expect(Self.mappedGeneration(localizer) == 1, "never mapped")
        #expect(wrong.isEmpty, "\(Set(wrong))")
        #expect(slowest < timeout + 1, "a lookup took \(slowest) s")
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "old")
    }

    @Test func aReloadWhoseMapOutlastsTheTimeLimitNeverGoesBlank() throws {
        let set = try LargeSet()
        let daemon = try DaemonProcess(resources: [set.resources.path])
        let localizer = Self.localizer(daemon.socketPath, timeout: 0.3)
        try Self.waitUntilMapped(localizer)

        // The edit's generation takes seconds to compile, ten times the time limit: until it is
        // mapped, lookups answer the old value from generation 1 (the event comes once it is
        // compiled), then the new one from the daemon or from generation 2.
        try set.edit("new")
        let (wrong, slowest) = Self.lookUp(localizer, allowing: ["old", "new"], for: 120) {
            (Self.mappedGeneration(localizer) ?? 0) >= 2
        }
        #expect(wrong.isEmpty, "answers other than old or new: \(Set(wrong))")
        #expect(slowest < 0.3 + 1, "a lookup took \(slowest) s")
        #expect((Self.mappedGeneration(localizer) ?? 0) >= 2, "the new generation was never mapped")
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "new")
        #expect(localizer.lookup("k", languages: ["ja"]).value == "new")
    }

    @Test func aDaemonKilledWhileTheNewGenerationCompilesLeavesTheOldMappingAnswering() throws {
        let set = try LargeSet()
        let slot = try ClientFailoverTests.DaemonSlot()
        try slot.start(resources: set.resources.path)
        let localizer = Self.localizer(slot.path, timeout: 0.3)
        let changed = Atomic<Bool>(false)
        let observation = localizer.onChange { change in
            if change.generation != nil { changed.store(true, ordering: .relaxed) }
        }
        defer { observation.cancel() }
        try Self.waitUntilMapped(localizer)

        // The reload's event arrives, its `map` waits for the compile, and the daemon dies.
        try set.edit("new")
        #expect(ClientDaemonTests.wait(seconds: 10) { changed.load(ordering: .relaxed) }, "no change event")
        slot.kill()
        #expect(ClientDaemonTests.wait(seconds: 5) { localizer.source == .lastKnown })
        // Old from generation 1; new only if a lookup asked the daemon before the kill.
        var (wrong, _) = Self.lookUp(localizer, allowing: ["old", "new"], for: 1) { false }
        #expect(wrong.isEmpty, "while the daemon is away: \(Set(wrong))")
        #expect(localizer.lookupWithSource("k", languages: ["ja"]).source == .lastKnown)

        // Back, it compiles the edited files for seconds: old or new meanwhile, never the key.
        try slot.start(resources: set.resources.path)
        (wrong, _) = Self.lookUp(localizer, allowing: ["old", "new"], for: 120) {
            Self.mappedGeneration(localizer) != nil
        }
        #expect(wrong.isEmpty, "after the restart: \(Set(wrong))")
        #expect(Self.mappedGeneration(localizer) != nil, "the restarted daemon's generation was never mapped")
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "new")
    }
}
