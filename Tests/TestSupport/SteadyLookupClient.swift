public import Foundation

/// A well-behaved client that keeps asking the daemon one lookup on its own thread while a
/// test abuses the daemon through other connections, and records every wrong, late or
/// missing answer: the proof that one bad client never harms another.
///
/// ```swift
/// let steady = try SteadyLookupClient(daemon: daemon)
/// // … misbehave on other connections …
/// let report = steady.stop()
/// #expect(report.failures.isEmpty)
/// ```
public final class SteadyLookupClient: @unchecked Sendable {
    /// What the client saw between its start and ``stop()``.
    public struct Report: Sendable {
        /// Correct answers received.
        public var answers: Int
        /// Each wrong answer or error, in order (at most the first 20).
        public var failures: [String]
        /// The slowest answer, in seconds.
        public var slowest: TimeInterval
    }

    private let client: JSONLineClient
    private let lock = NSLock()
    private var report = Report(answers: 0, failures: [], slowest: 0)
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    /// Connects to `daemon` and starts asking `key` in `language`, expecting `value`, with a
    /// short pause between requests so the daemon's queue is shared, not monopolised.
    public init(
        daemon: DaemonProcess, key: String = "多言語化", language: String = "en", value: String = "Multilingualization",
        timeout: TimeInterval = 5
    ) throws {
        client = try daemon.connect(timeout: timeout)
        let request = String(
            decoding: try JSONSerialization.data(withJSONObject: ["op": "lookup", "key": key, "lang": language]),
            as: UTF8.self)
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let started = Date()
                let outcome: String?
                do {
                    try client.send(line: request)
                    let reply = try client.readObject()
                    outcome =
                        reply["value"] as? String == value && reply["found"] as? Bool == true
                        ? nil : "wrong reply \(reply)"
                } catch {
                    outcome = "\(error)"
                }
                let elapsed = Date().timeIntervalSince(started)
                let keepGoing = lock.withLock {
                    report.slowest = max(report.slowest, elapsed)
                    if let outcome {
                        if report.failures.count < 20 { report.failures.append(outcome) }
                    } else {
                        report.answers += 1
                    }
                    // A broken connection stays broken: one failure says it all.
                    return outcome == nil
                }
                if !keepGoing { break }
                usleep(2_000)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Correct answers so far.
    public var answers: Int { lock.withLock { report.answers } }

    /// Waits until at least `count` more correct answers arrived than now, or `timeout`
    /// seconds passed; true when they did. Proves the daemon serves this client *now*.
    @discardableResult
    public func waitForAnswers(_ count: Int = 3, timeout: TimeInterval = 5) -> Bool {
        let target = answers + count
        let deadline = Date().addingTimeInterval(timeout)
        while answers < target {
            if Date() > deadline || !lock.withLock({ report.failures.isEmpty }) { return false }
            usleep(2_000)
        }
        return true
    }

    /// Stops asking and returns what was seen.
    public func stop() -> Report {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { report }
    }
}
