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

    /// 16 tasks on one connection, the way `send(_:) async` queues their writes behind the
    /// tasks ready to run: every reply goes to the task that asked (a missing key comes back
    /// as itself, so each answer names its question).
    @Test func tasksSharingOneConnectionEachGetTheirOwnAnswers() async throws {
        let setup = try Setup()
        // The time limit is not what this test checks, and it is long on purpose: with
        // requests in flight, `send(_:) async` writes them in a job on Swift's cooperative
        // pool, which has a thread per core (2 here) and is shared with every other test of
        // the process; tests that block their thread (`eventually` polling a daemon for up to
        // a minute) can hold the job back for as long, and a 10 s limit then failed every
        // request in flight at once though the daemon answered at once (CI, loaded 2 cores).
        let client = LocalizationClient(socketPath: setup.daemon.socketPath, timeout: 120)
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
            _ = try connection.submit(Self.lookup("k"), timeLimit: limit, writeLater: true) { result in
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
            _ = try connection.submit(Self.lookup("k"), timeLimit: 10, writeLater: index % 2 == 0) { result in
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
