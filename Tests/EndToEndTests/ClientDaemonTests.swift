import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// The client library against a real `l10nd`: both daemon modes see a translator's edit
/// live, change notifications name the table, misses reach `l10nctl missing`.
@Suite struct ClientDaemonTests {
    /// A resource directory with `ja` and `en` tables and a daemon serving it.
    struct Setup {
        let resources: TemporaryDirectory
        let daemon: DaemonProcess
        let japanese: String

        init() throws {
            resources = try TemporaryDirectory()
            japanese = try resources.write(
                "\"k\" = \"old\";\n\"多言語化\" = \"多言語化\";\n", to: "ja.lproj/Localizable.strings")
            try resources.write("\"title\" = \"設定\";\n", to: "ja.lproj/Settings.strings")
            try resources.write("\"多言語化\" = \"Multilingualization\";\n", to: "en.lproj/Localizable.strings")
            daemon = try DaemonProcess(resources: [resources.path])
        }
    }

    /// Waits for `condition`, at most `seconds`.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    @Test(arguments: [LookupMode.mapped, .direct])
    func anEditIsVisibleOnceTheCallbackFires(mode: LookupMode) throws {
        let setup = try Setup()
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: setup.daemon.socketPath, mode: mode)
        #expect(localizer.source == .daemon)
        #expect(localizer.lookup("多言語化", languages: ["en"]).value == "Multilingualization")
        #expect(localizer.lookup("k", languages: ["ja"]).value == "old")
        let seen = Mutex<[(LocalizationChange, String, Date)]>([])
        let observation = localizer.onChange { change in
            // The value the next call returns, read inside the callback itself.
            let value = localizer.lookup("k", languages: ["ja"]).value
            seen.withLock { $0.append((change, value, Date())) }
        }
        defer { observation.cancel() }
        let edited = Date()
        try "\"k\" = \"new\";\n".write(toFile: setup.japanese, atomically: true, encoding: .utf8)
        #expect(Self.wait(seconds: 5) { !seen.withLock { $0.isEmpty } }, "no change callback")
        let (change, valueInCallback, firedAt) = try #require(seen.withLock { $0.first })
        #expect(change.tables == [LocalizationChange.Table(language: "ja", table: "Localizable")])
        #expect(change.affects(table: nil) && !change.affects(table: "Settings"))
        #expect((change.generation ?? 0) >= 2)
        #expect(valueInCallback == "new")
        #expect(localizer.lookup("k", languages: ["ja"]).value == "new")
        // Generous for a loaded CI machine; the benchmark and the demo script show the real figure.
        #expect(firedAt.timeIntervalSince(edited) < 2)
    }

    @Test func mappedLookupsThroughLanguageReadTheGeneration() throws {
        let setup = try Setup()
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: setup.daemon.socketPath, mode: .mapped)
        #expect(
            eventually {
                localizer.value("多言語化", languages: .one("en"), table: nil) == "Multilingualization"
                    && localizer.daemon?.mapped.current != nil
            }, "never mapped")
        // Several languages: the daemon answers (a round trip), before the count below.
        #expect(localizer.value("title", languages: .many(["fr", "ja"]), table: "Settings") == "設定")
        let before = try setup.daemon.request(["op": "status"])
        for _ in 0..<1000 { _ = localizer.value("多言語化", languages: .one("en"), table: nil) }
        let after = try setup.daemon.request(["op": "status"])
        func lookups(_ status: [String: Any]) -> Int {
            (status["counters"] as? [String: Any])?["lookups"] as? Int ?? -1
        }
        #expect(lookups(after) == lookups(before), "mapped lookups must not reach the daemon")
    }

    @Test func theAsyncStreamDeliversChanges() async throws {
        let setup = try Setup()
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: setup.daemon.socketPath, mode: .mapped)
        _ = localizer.lookup("title", languages: ["ja"], table: "Settings")
        let stream = localizer.changes()
        try "\"title\" = \"環境設定\";\n".write(
            toFile: setup.resources.path + "/ja.lproj/Settings.strings", atomically: true, encoding: .utf8)
        let change = try await withThrowingTaskGroup(of: LocalizationChange?.self) { group in
            group.addTask { await stream.first { _ in true } }
            group.addTask {
                try await Task.sleep(for: .seconds(10))  // the time limit: cancelled once a change comes
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        #expect(change?.tables == [LocalizationChange.Table(language: "ja", table: "Settings")])
        #expect(localizer.lookup("title", languages: ["ja"], table: "Settings").value == "環境設定")
    }

    @Test func mappedMissesReachTheMissingReport() throws {
        let setup = try Setup()
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: setup.daemon.socketPath, mode: .mapped)
        #expect(
            eventually {
                _ = localizer.lookup("多言語化", languages: ["ja"])
                return localizer.daemon?.mapped.current != nil
            }, "never mapped")
        for _ in 0..<100 { _ = localizer.value("nobody has this", languages: .one("ja"), table: nil) }
        var entries: [[String: Any]] = []
        #expect(
            Self.wait(seconds: 5) {
                entries = (try? setup.daemon.request(["op": "missing"]))?["missing"] as? [[String: Any]] ?? []
                return !entries.isEmpty
            })
        #expect(entries.count == 1)
        #expect(entries.first?["key"] as? String == "nobody has this")
        #expect(entries.first?["lang"] as? String == "ja")
    }

    @Test func pipelinedRequestsFromManyThreadsEachGetTheirOwnReply() throws {
        let setup = try Setup()
        let client = LocalizationClient(socketPath: setup.daemon.socketPath, timeout: 10)
        #expect(client.isConnected)
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<200 {
                let key = "key \(thread) \(index)"
                guard
                    case .lookup(let result)? = try? client.send(
                        .lookup(key: key, languages: ["ja"], table: nil)),
                    result.value == key
                else {
                    failures.add(1, ordering: .relaxed)
                    continue
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }

    /// A fractional count reaches the daemon as a decimal, in both modes; a `%d` variable
    /// selects by its integral part, the number it prints (docs/PLURALS.md): `1.5` and `1.0`
    /// are `one` in French and English alike, `2.5` `other`.
    @Test(arguments: [LookupMode.mapped, .direct])
    func decimalCountsSelectThroughTheDaemon(mode: LookupMode) throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode)
        for (language, count, expected) in [
            ("fr", "1.5", "%d fichier"), ("en", "1.5", "%d file"), ("en", "1.0", "%d file"), ("en", "1", "%d file"),
            ("en", "2.5", "%d files"),
        ] {
            let (result, source) = localizer.lookupWithSource(
                "%d files", languages: [language], count: try #require(PluralOperands(count)))
            #expect(source == .daemon && result.value == expected, "\(language) \(count): \(result)")
        }
    }

    @Test func asyncSendAndHello() async throws {
        let setup = try Setup()
        let client = LocalizationClient(socketPath: setup.daemon.socketPath)
        guard case .fields(let hello) = try await client.send(.hello) else {
            Issue.record("hello did not answer with fields")
            return
        }
        #expect(hello["protocol"]?["major"]?.integerValue == 1)
        guard
            case .lookup(let result) = try await client.send(
                .lookup(key: "多言語化", languages: ["en"], table: nil))
        else {
            Issue.record("lookup did not answer with a lookup")
            return
        }
        #expect(result.value == "Multilingualization")
        client.close()
        await #expect(throws: DaemonConnectionError.self) { try await client.send(.hello) }
    }

    /// Requests with time limits (what `send(_:) async` makes) share one timer: against a
    /// stopped daemon, a short limit sent after a long one still fails first, at its own
    /// limit, and the long one fails at its own. Driven through the client's connection with
    /// completion handlers, which run on Dispatch's threads: an `async` test would measure
    /// how soon the cooperative pool, busy with other tests, resumes it.
    @Test func requestsToAStoppedDaemonFailEachAtItsOwnLimit() throws {
        let setup = try Setup()
        let connection = setup.daemon.startedClientConnection()
        defer { connection.close() }
        #expect(setup.daemon.suspend())
        defer { setup.daemon.send(signal: SIGCONT) }
        let outcomes = TimedOutcomes()
        let started = Date()
        for limit in [2.0, 0.3] {
            _ = try connection.submit(.hello, timeLimit: limit) { result in
                let seconds = Date().timeIntervalSince(started)
                let code: DaemonConnectionError.Code? =
                    switch result {
                    case .success: nil
                    case .failure(let error): error.code
                    }
                outcomes.values.withLock { $0[limit] = (seconds, code) }
            }
            usleep(50_000)  // the long limit is asked first
        }
        _ = eventually { outcomes.values.withLock { $0.count } >= 2 }
        let results = outcomes.values.withLock { $0 }
        let short = try #require(results[0.3], "\(results)")
        let long = try #require(results[2.0], "\(results)")
        #expect(short.error == .timeout && long.error == .timeout, "\(results)")
        #expect(short.seconds >= 0.3 && short.seconds < 1.5, "\(results)")
        #expect(long.seconds >= 2.0 && long.seconds < 4, "\(results)")
    }
}

/// When each request of ``ClientDaemonTests/requestsToAStoppedDaemonFailEachAtItsOwnLimit()``
/// ended and how, by its time limit.
private final class TimedOutcomes: Sendable {
    let values = Mutex<[Double: (seconds: Double, error: DaemonConnectionError.Code?)]>([:])
}
