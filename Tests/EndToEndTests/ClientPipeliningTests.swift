import Foundation
import LocalizationWire
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Many requests in flight at once: queued requests are written together, replies are read
/// for every client of the process by one shared thread, and neither changes which reply a
/// caller gets, when its time limit fires, or how fast a dead daemon's requests fail.
@Suite struct ClientPipeliningTests {
    /// A daemon on a small `ja` table.
    struct Setup {
        let resources: TemporaryDirectory
        let daemon: DaemonProcess

        init() throws {
            resources = try TemporaryDirectory()
            try resources.write("\"k\" = \"値\";\n", to: "ja.lproj/Localizable.strings")
            daemon = try DaemonProcess(resources: [resources.path])
        }
    }

    static func lookup(_ key: String) -> WireOperation {
        .lookup(key: key, languages: ["ja"], table: nil)
    }

    /// 16 tasks on one connection, the way `send(_:) async` leaves their writes to the
    /// connection loop while others are in flight: every reply goes to the task that asked (a missing key comes back
    /// as itself, so each answer names its question).
    @Test func tasksSharingOneConnectionEachGetTheirOwnAnswers() async throws {
        let setup = try Setup()
        let client = LocalizationClient(socketPath: setup.daemon.socketPath, timeout: 10)
        // Each failure as text (an error such as a time limit, or another question's answer),
        // so a failure under load says which it was.
        let failures = await withTaskGroup(of: [String].self) { group in
            for task in 0..<16 {
                group.addTask {
                    var failures: [String] = []
                    for index in 0..<200 {
                        let key = index % 10 == 0 ? "k" : "key \(task) \(index)"
                        let expected = key == "k" ? "値" : key
                        do {
                            let reply = try await client.send(Self.lookup(key))
                            guard case .lookup(let result) = reply, result.value == expected else {
                                failures.append("\(key): answered \(reply)")
                                continue
                            }
                        } catch {
                            failures.append("\(key): \(error)")
                        }
                    }
                    return failures
                }
            }
            return await group.reduce([], +)
        }
        #expect(failures.isEmpty, "\(failures.count) of 3,200, e.g. \(failures.prefix(3))")
    }

    /// `send(_:) async` with requests in flight leaves their write to the connection loop's
    /// thread, not to Swift's cooperative pool: while blocking work holds every thread of the
    /// pool, as a program's synchronous code (or the synchronous tests of a test process)
    /// may for any time, an async lookup still answers at once. When the write was a job on
    /// the pool, it waited for a free thread, and the lookup failed at its time limit
    /// (CI: 15 of 16 tasks' lookups at once, though the daemon answered at once).
    @Test func anAsyncLookupAnswersWhileBlockingWorkHoldsEveryThreadOfThePool() async throws {
        let setup = try Setup()
        let client = LocalizationClient(socketPath: setup.daemon.socketPath, timeout: 3)
        defer { client.close() }
        // This test's tasks run on a thread of their own, so they await while the pool is held.
        let executor = ThreadTaskExecutor(name: "pool-held-test")
        defer { executor.stop() }
        let outcomes = try await withTaskExecutorPreference(executor) {
            () async throws -> [(String, Result<WireReply, DaemonConnectionError>, Double)] in
            let pool = CooperativePoolBlocker()
            defer { pool.release() }
            // Blocking tasks that could not all start within its wait found the pool's threads
            // held by other tests of this process: the pool is held either way, as this test
            // needs, so it goes on (a hard requirement failed in loaded full runs).
            _ = pool.isHoldingThePool
            // The daemon stopped, so the first request is still in flight when the second is
            // made: that one is written the way requests made during others are.
            #expect(setup.daemon.suspend())
            let started = Date()
            async let first = Self.timedLookup("k", through: client, since: started)
            async let second = Self.timedLookup("absent", through: client, since: started)
            try await Task.sleep(for: .milliseconds(300))
            setup.daemon.send(signal: SIGCONT)
            return await [first, second]
        }
        for (key, result, seconds) in outcomes {
            let expected = key == "k" ? "値" : key
            guard case .success(.lookup(let answer)) = result else {
                Issue.record("\(key): \(result) after \(seconds) s, with the pool held")
                continue
            }
            #expect(answer.value == expected)
            #expect(seconds < 2, "\(key) answered after \(seconds) s")
        }
    }

    /// `key`'s lookup through `client`'s `send(_:) async`, and how long after `started` it ended.
    static func timedLookup(
        _ key: String, through client: LocalizationClient, since started: Date
    ) async -> (String, Result<WireReply, DaemonConnectionError>, Double) {
        let result: Result<WireReply, DaemonConnectionError>
        do throws(DaemonConnectionError) { result = .success(try await client.send(lookup(key))) } catch {
            result = .failure(error)
        }
        return (key, result, Date().timeIntervalSince(started))
    }

    /// Requests left to the loop that do not fit in the socket (the daemon stopped, 512 KiB
    /// queued) are written as it takes them, the loop watching for room instead of blocking:
    /// once the daemon goes on, every one is answered, and the loop, reading all the while,
    /// hands each answer to its caller. Few large requests: the loop is shared with the
    /// other tests of the process, whose time limits it keeps.
    @Test func requestsLeftToTheLoopThatFillTheSocketAreAllWritten() throws {
        let setup = try Setup()
        let connection = setup.daemon.startedClientConnection()
        defer { connection.close() }
        #expect(setup.daemon.suspend())
        let filler = String(repeating: "x", count: 8_192)
        let count = 64
        let wrong = Mutex<[String]>([])
        let outcomes = Outcomes()
        let started = Date()
        for index in 0..<count {
            let key = "\(index) \(filler)"
            _ = try connection.submit(Self.lookup(key), timeLimit: 20, leaveToLoop: true) { result in
                if case .success(.lookup(let answer)) = result, answer.value != key {
                    wrong.withLock { $0.append("\(index): \(answer.value.prefix(10))") }
                }
                outcomes.record(index, result, at: Date().timeIntervalSince(started))
            }
        }
        // Submitting never waited for the stopped daemon.
        #expect(Date().timeIntervalSince(started) < 5)
        setup.daemon.send(signal: SIGCONT)
        #expect(outcomes.wait(for: count, seconds: 15))
        let failed = outcomes.all.filter { $0.value.code != nil }
        #expect(failed.isEmpty, "\(failed.count) failed, e.g. \(failed.first.map { "\($0)" } ?? "")")
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(3) })")
    }

    /// Requests queued for a later write keep their own time limits: against a stopped
    /// daemon, the short one fails first at its limit, the long one at its own.
    @Test func queuedWritesKeepEachRequestsTimeLimit() throws {
        let setup = try Setup()
        let connection = setup.daemon.startedClientConnection()
        defer { connection.close() }
        #expect(setup.daemon.suspend())
        defer { setup.daemon.send(signal: SIGCONT) }
        let outcomes = Outcomes()
        let started = Date()
        for (index, limit) in [2.0, 2.0, 0.3].enumerated() {
            _ = try connection.submit(Self.lookup("k"), timeLimit: limit, leaveToLoop: true) { result in
                outcomes.record(index, result, at: Date().timeIntervalSince(started))
            }
        }
        #expect(outcomes.wait(for: 3, seconds: 10))
        let results = outcomes.all
        #expect(results.values.allSatisfy { $0.code == .timeout }, "\(results)")
        let short = try #require(results[2], "\(results)")
        #expect(short.seconds >= 0.3 && short.seconds < 1.5, "\(results)")
        for index in [0, 1] {
            let long = try #require(results[index], "\(results)")
            #expect(long.seconds >= 2.0 && long.seconds < 4, "\(results)")
        }
    }

    /// A daemon killed with a burst of requests in flight: every one of them fails with
    /// `.unreachable` at once, not at its 10-second limit, and the next fails without waiting.
    @Test func aDaemonKilledMidBurstFailsEveryPendingRequestPromptly() throws {
        let setup = try Setup()
        let connection = setup.daemon.startedClientConnection()
        defer { connection.close() }
        #expect(setup.daemon.suspend())
        let outcomes = Outcomes()
        let count = 300
        for index in 0..<count {
            _ = try connection.submit(Self.lookup("k"), timeLimit: 10, leaveToLoop: index % 2 == 0) { result in
                outcomes.record(index, result, at: 0)
            }
        }
        let killed = Date()
        setup.daemon.send(signal: SIGKILL)
        #expect(outcomes.wait(for: count, seconds: 5))
        #expect(Date().timeIntervalSince(killed) < 2)
        let results = outcomes.all
        #expect(results.count == count)
        #expect(results.values.allSatisfy { $0.code == .unreachable }, "\(results.values.map(\.code))")
        let next = Date()
        #expect(throws: DaemonConnectionError.self) { try connection.submit(Self.lookup("k")) { _ in } }
        #expect(Date().timeIntervalSince(next) < 0.5)
    }

    /// Clients of two daemons share the process's connection thread: one daemon dying with
    /// requests in flight costs the other client's callers nothing.
    @Test func oneDaemonDyingLeavesAnotherClientsRepliesAlone() throws {
        let dying = try Setup()
        let living = try Setup()
        let doomed = LocalizationClient(socketPath: dying.daemon.socketPath, timeout: 10)
        let client = LocalizationClient(socketPath: living.daemon.socketPath, timeout: 10)
        #expect(dying.daemon.suspend())
        let failures = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                if (try? doomed.send(Self.lookup("k"))) == nil { failures.add(1, ordering: .relaxed) }
            }
        }
        let wrong = Atomic<Int>(0)
        let dyingPID = dying.daemon.process.processIdentifier
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<200 {
                if index == 100 && thread == 0 { kill(dyingPID, SIGKILL) }
                let key = "key \(thread) \(index)"
                guard case .lookup(let result)? = try? client.send(Self.lookup(key)), result.value == key else {
                    wrong.add(1, ordering: .relaxed)
                    continue
                }
            }
        }
        dying.daemon.send(signal: SIGKILL)
        #expect(group.wait(timeout: .now() + 5) == .success)
        #expect(failures.load(ordering: .relaxed) == 8)
        #expect(wrong.load(ordering: .relaxed) == 0)
    }
}

/// How each request of a test ended, and when, by its index.
private final class Outcomes: Sendable {
    private let values = Mutex<[Int: (seconds: Double, code: DaemonConnectionError.Code?)]>([:])

    func record(_ index: Int, _ result: Result<WireReply, DaemonConnectionError>, at seconds: Double) {
        let code: DaemonConnectionError.Code? =
            switch result {
            case .success: nil
            case .failure(let error): error.code
            }
        values.withLock { $0[index] = (seconds, code) }
    }

    var all: [Int: (seconds: Double, code: DaemonConnectionError.Code?)] { values.withLock { $0 } }

    /// Waits until `count` outcomes are in, at most `seconds`.
    func wait(for count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while values.withLock({ $0.count }) < count {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
