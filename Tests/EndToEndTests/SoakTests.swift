import Foundation
import Glibc
import TestSupport
import Testing

@testable import Localization

/// The daemon under a storm, for a fixed time: several clients look up without pause — single
/// keys, batches and whole tables, in JSON and in binary frames — while another process
/// (`scripts/soak-writer`) rewrites the tables hundreds of times, writes files with syntax
/// errors, and deletes and re-creates whole `.lproj` directories. Every reply must hold one
/// complete version of a table (``SoakChecker``): zero wrong answers. Afterwards the daemon
/// serves the final files, and its descriptors and memory are back where they were.
///
/// The run lasts `L10N_SOAK_SECONDS` (10 by default); `scripts/soak 600` runs the same test
/// for ten minutes.
@Suite(.serialized) struct SoakTests {
    static let keys = (0..<30).map { String(format: "k%02d", $0) }
    static let tables = ["Localizable", "Menu"]
    static let languages = ["ja", "de"]

    static var seconds: Double {
        ProcessInfo.processInfo.environment["L10N_SOAK_SECONDS"].flatMap(Double.init) ?? 10
    }

    /// `.strings` text of `table` in `language` at `version` ("en" has no version).
    static func text(_ language: String, _ version: Int?, _ table: String) -> String {
        keys.map { "\"\($0)\" = \"\(language)\(version.map(String.init) ?? ""):\(table):\($0)\";\n" }.joined()
    }

    @Test func lookupsStayConsistentWhileTablesAreRewritten() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-soak")
        for table in Self.tables {
            try resources.write(Self.text("en", nil, table), to: "en.lproj/\(table).strings")
            for language in Self.languages {
                try resources.write(Self.text(language, 1, table), to: "\(language).lproj/\(table).strings")
            }
        }
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--log-level", "warning"])
        // Mapped before the baseline: the daemon keeps the sealed file of its current generation.
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: .mapped, timeout: 2)
        let mapped = Date().addingTimeInterval(30)
        while localizer.daemon?.mapped.current == nil, Date() < mapped {
            _ = localizer.lookup("k00", languages: ["ja"])
            usleep(10_000)
        }
        #expect(localizer.daemon?.mapped.current != nil, "the mapped client never mapped")
        let baseline = try DaemonBaseline(daemon)
        let steady = try SteadyLookupClient(daemon: daemon, key: "k00", language: "en", value: "en:Localizable:k00")
        let checker = SoakChecker()
        let counts = resources.path + ".counts"
        defer { unlink(counts) }
        let writer = try BackgroundProcess(PackagePaths.root + "/scripts/soak-writer", [resources.path, counts])

        let deadline = Date().addingTimeInterval(Self.seconds)
        let clients: [(String, @Sendable (SoakClient) throws -> Void)] = [
            ("json lookup", { try $0.jsonLookup() }), ("json lookup", { try $0.jsonLookup() }),
            ("json batch", { try $0.jsonBatch() }), ("json table", { try $0.jsonTable() }),
            ("binary lookup and table", { try $0.binaryLookupOrTable() }),
        ]
        let finished = DispatchGroup()
        for (index, (name, step)) in clients.enumerated() {
            let client = try SoakClient(daemon: daemon, checker: checker, seed: UInt64(index + 1))
            finished.enter()
            Thread {
                defer { finished.leave() }
                do {
                    while Date() < deadline { try step(client) }
                } catch {
                    checker.fail("\(name) client: \(error)")
                }
            }.start()
        }
        // The client library in mapped mode (the default with a daemon) reads beside them: a
        // reload maps each new generation while lookups go on. Its answers must be values the
        // writer wrote (or the development language's), never keys.
        finished.enter()
        Thread {
            defer { finished.leave() }
            var generator = SeededGenerator(seed: 99)
            while Date() < deadline {
                let (language, table) = (
                    Self.languages.randomElement(using: &generator)!, Self.tables.randomElement(using: &generator)!
                )
                let key = Self.keys.randomElement(using: &generator)!
                let hotPath = Bool.random(using: &generator)
                let value =
                    hotPath
                    ? localizer.value(key, languages: .one(language), table: table)
                    : localizer.lookup(key, languages: [language], table: table).value
                let context = hotPath ? "mapped localized" : "mapped lookup"
                if checker.version(
                    of: value, key: key, table: table, language: language, reportedLanguage: nil, context: context)
                    != nil
                {
                    checker.answered(context)
                }
            }
        }.start()
        usleep(UInt32(Self.seconds * 500_000))  // half-way through the soak: the moment to sample
        let midwayKiB = daemon.residentKilobytes ?? 0
        #expect(finished.wait(timeout: .now() + Self.seconds + 30) == .success, "the clients did not finish")
        localizer.useEmbedded()  // its connections close: the daemon's descriptors are counted below
        // SIGKILL: the test runner may hand its children SIGTERM ignored, which bash cannot undo.
        writer.send(signal: SIGKILL)
        _ = writer.waitForExit(timeout: 10)
        let written =
            (try? String(contentsOfFile: counts, encoding: .utf8))?.split(whereSeparator: \.isWhitespace).compactMap {
                Int($0)
            } ?? []
        #expect(written.count == 3, "the writer left no counts: \(writer.log)")
        let (rounds, broken, recreated) = written.count == 3 ? (written[0], written[1], written[2]) : (0, 0, 0)

        // The storm is over: the final files, written now, are what the daemon must serve.
        // The writer may have been killed between deleting a language and bringing it back.
        for language in Self.languages {
            try? FileManager.default.removeItem(atPath: "\(resources.path)/.\(language).new")
            try resources.makeDirectory("\(language).lproj")
            for table in Self.tables {
                try Data(Self.text(language, 1_000_000, table).utf8).write(
                    to: URL(fileURLWithPath: "\(resources.path)/\(language).lproj/\(table).strings"), options: .atomic)
            }
        }
        let settled = Date().addingTimeInterval(10)
        var stale = Self.languages.flatMap { language in Self.tables.map { (language, $0) } }
        while !stale.isEmpty, Date() < settled {
            stale = try stale.filter { language, table in
                try daemon.request(["op": "lookup", "key": "k29", "lang": language, "table": table])["value"] as? String
                    != "\(language)1000000:\(table):k29"
            }
            if !stale.isEmpty { usleep(20_000) }
        }
        #expect(stale.isEmpty, "still stale 10 s after the last write: \(stale)")

        let status = try daemon.request(["op": "status"])
        let counters = status["counters"] as? [String: Any] ?? [:]
        let answers = checker.answers
        let lookups = answers.values.reduce(0, +)
        print(
            "soak: \(Self.seconds) s; \(lookups) values checked \(answers.sorted { $0.key < $1.key }); "
                + "\(rounds) rewrites (\(broken) broken files, \(recreated) directories deleted and re-made); "
                + "reloads \(counters["reloads"] ?? "?"), rescans \(counters["rescans"] ?? "?"), watcher \(status["watcher"] ?? "?"); "
                + "wrong answers \(checker.wrong); RSS \(baseline.residentKilobytes) → \(midwayKiB) → \(daemon.residentKilobytes ?? 0) KiB"
        )
        #expect(checker.wrong == 0, "\(checker.wrong) wrong answers: \(checker.failures)")
        #expect(checker.regressions().isEmpty, "\(checker.regressions().prefix(5))")
        #expect(rounds >= Int(Self.seconds * 5), "the writer managed only \(rounds) rewrites")
        #expect(broken > 0 && recreated > 0)
        #expect((counters["reloads"] as? Int ?? 0) >= rounds / 10, "\(counters)")
        #expect(lookups >= Int(Self.seconds * 500), "only \(lookups) values checked")
        // Memory that keeps growing shows in the second half: by then every table has been
        // loaded, broken and reloaded many times over, so a steady daemon stays where it was.
        let endKiB = daemon.residentKilobytes ?? 0
        #expect(
            endKiB - midwayKiB < Self.secondHalfGrowthLimitKiB,
            "RSS grew from \(midwayKiB) KiB midway to \(endKiB) KiB at the end")
        // Under AddressSanitizer the allocator's own regions and shadow memory take tens of
        // MiB in the first seconds, then stop (RELIABILITY.md): there only the second half
        // is bounded.
        try baseline.expectSteadyAndBounded(
            steady, daemon,
            rssGrowthLimitKiB: SanitizerEnvironment.isSanitizedRun ? nil : DaemonRobustnessTests.rssGrowthLimitKiB)
    }

    /// How much the daemon may grow from the middle of the run to its end: 16 MiB, plus
    /// under `scripts/sanitize` the 16 MiB of freed memory ASan's quarantine keeps resident
    /// (`quarantine_size_mb=16`), which fills as the run goes (a loaded ASan run grew 13 MiB).
    static var secondHalfGrowthLimitKiB: Int { (SanitizerEnvironment.isSanitizedRun ? 32 : 16) * 1024 }

}
