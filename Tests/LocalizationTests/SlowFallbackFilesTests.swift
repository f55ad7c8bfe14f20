import Foundation
import Glibc
import LocalizationCore
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Outside tester (10 languages × 100,000 keys, `L10N_RESOURCES` as the fallback): `kill -9`
/// of the daemon under load froze lookups about 2 s (one took 2.1 s, and the `source` getter
/// blocked 2.0 s), because the fallback files were read when the outage began and lookups
/// waited for the read. They are read in the background now: a lookup waits for them at
/// most its time limit (then answers with what the daemon said), and `source` never waits.
@Suite struct SlowFallbackFilesTests {
    /// Writes a set under `directory` that takes at least `least` seconds to read (doubling it
    /// until it does, or 400,000 keys per language); returns the time its last read took.
    static func writeSlowSet(in directory: TemporaryDirectory, readingAtLeast least: Double) throws -> Double {
        var keys = 25_000
        var readTime = 0.0
        repeat {
            for language in ["ja", "de", "fr", "es"] {
                var text = "\"k\" = \"\(language) file\";\n"
                for index in 0..<keys { text += "\"key \(index)\" = \"\(language) value \(index)\";\n" }
                try directory.write(text, to: "\(language).lproj/Localizable.strings")
            }
            let started = Date()
            _ = ResourceSet.load(roots: [directory.path], developmentLanguage: LanguageTag(language: "en"))
            readTime = Date().timeIntervalSince(started)
            keys *= 2
        } while readTime < least && keys <= 400_000
        return readTime
    }

    @Test func lookupsInAnOutageWaitForTheFallbackFilesNoLongerThanTheTimeLimit() throws {
        let timeout = 0.2
        let files = try TemporaryDirectory()
        let readTime = try Self.writeSlowSet(in: files, readingAtLeast: 1)
        try #require(readTime >= 1, "the set reads in \(readTime) s: too fast to show a wait")
        let served = try TemporaryDirectory()
        try served.write(#""k" = "value";"#, to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [served.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useResources(at: [files.path])
        localizer.useDaemon(socketPath: daemon.socketPath, mode: .mapped, timeout: timeout)
        defer { localizer.useEmbedded() }
        #expect(eventually { localizer.lookupWithSource("k", languages: ["ja"]).source == .daemon })

        // Four threads look up while the daemon is killed, until the files answer.
        let stop = Atomic<Bool>(false)
        let slowest = Mutex<Double>(0)
        let wrong = Mutex<Set<String>>([])
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                defer { group.leave() }
                while !stop.load(ordering: .relaxed) {
                    let started = Date()
                    let value = localizer.lookup("k", languages: ["ja"]).value
                    slowest.withLock { $0 = max($0, Date().timeIntervalSince(started)) }
                    if value != "value" && value != "ja file" { wrong.withLock { _ = $0.insert(value) } }
                }
            }.start()
        }
        usleep(100_000)
        daemon.send(signal: SIGKILL)
        _ = daemon.stop()
        var slowestSource = 0.0
        let filesAnswer = eventually(30) {
            let started = Date()
            _ = localizer.source
            slowestSource = max(slowestSource, Date().timeIntervalSince(started))
            return localizer.lookupWithSource("k", languages: ["ja"]).source == .files
        }
        stop.store(true, ordering: .relaxed)
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(filesAnswer, "the files never answered")
        #expect(wrong.withLock { $0 }.isEmpty, "wrong values: \(wrong.withLock { $0 })")
        // The limit, and room for a loaded machine; the read takes 1 s at least.
        #expect(slowest.withLock { $0 } < timeout + 0.5, "a lookup took \(slowest.withLock { $0 }) s")
        #expect(slowestSource < 0.3, "source took \(slowestSource) s")
        #expect(localizer.lookup("k", languages: ["ja"]).value == "ja file")
    }
}
