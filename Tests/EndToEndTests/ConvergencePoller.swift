import Foundation
import TestSupport

/// Asks one daemon, on its own thread and connection, for a versioned value over and over
/// while files are delivered, and records everything that a client must never see: a
/// missing key, a fallback language, an error, or a version older than one already served.
///
/// The value asked for is `"greeting"` in `ja`, written as `"こんにちは vN"` with N the
/// delivery's number; a second, never-changing table (`Settings`, key `title`) is asked
/// each time too, so a table that vanishes for a moment during the switch is caught as well.
final class ConvergencePoller: @unchecked Sendable {
    /// What one daemon served between ``init`` and ``stop()``.
    struct Report {
        /// Answers that were right (found, in `ja`, not older than before).
        var answers = 0
        /// Wrong answers and errors, in order (the first 20).
        var violations: [String] = []
        /// The newest version served so far.
        var version = 0
        /// When each version was first served.
        var firstServed: [Int: Date] = [:]
    }

    /// The label used in messages (which daemon).
    let name: String
    private let client: JSONLineClient
    private let lock = NSLock()
    private var report = Report()
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init(daemon: DaemonProcess, name: String) throws {
        self.name = name
        client = try daemon.connect(timeout: 10)
        let greeting = try Self.line(["op": "lookup", "key": "greeting", "lang": "ja"])
        let title = try Self.line(["op": "lookup", "key": "title", "lang": "ja", "table": "Settings"])
        Thread { [self] in
            while lock.withLock({ running }) {
                let problem: String?
                var version: Int?
                do {
                    try client.send(line: greeting)
                    let reply = try client.readObject()
                    try client.send(line: title)
                    let settings = try client.readObject()
                    version = Self.version(in: reply)
                    problem =
                        version == nil
                        ? "greeting: \(reply)"
                        : Self.isServedInJapanese(settings, value: "設定") ? nil : "Settings.title: \(settings)"
                } catch {
                    problem = "\(error)"
                }
                let keepGoing = lock.withLock {
                    if let version, problem == nil {
                        if version < report.version {
                            report.violations.append("v\(version) served after v\(report.version)")
                        } else {
                            if report.firstServed[version] == nil { report.firstServed[version] = Date() }
                            report.version = version
                            report.answers += 1
                        }
                    } else if let problem, report.violations.count < 20 {
                        report.violations.append(problem)
                    }
                    return report.violations.count < 20
                }
                if !keepGoing { break }
                // A pause, so three pollers on a shared machine leave the daemons room.
                usleep(1_000)
            }
            finished.signal()
        }.start()
    }

    /// The newest version served so far.
    var version: Int { lock.withLock { report.version } }

    /// Waits until the daemon serves `version` (or a later one), or `timeout` seconds
    /// pass; returns when it first served it, or nil.
    func awaitVersion(_ version: Int, timeout: TimeInterval) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let served = lock.withLock({ report.firstServed[version] }) { return served }
            if lock.withLock({ report.violations.count >= 20 }) { return nil }
            usleep(2_000)
        }
        return nil
    }

    /// Waits for `count` more right answers: proof the daemon answers now.
    func awaitAnswers(_ count: Int = 5, timeout: TimeInterval = 20) -> Bool {
        let target = lock.withLock { report.answers } + count
        let deadline = Date().addingTimeInterval(timeout)
        while lock.withLock({ report.answers }) < target {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Stops asking (once; later calls return at once); returns what was seen.
    func stop() -> Report {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        if wasRunning { finished.wait() }
        return lock.withLock { report }
    }

    /// N from a found `ja` answer `"こんにちは vN"`; nil for anything else (a miss, whose
    /// value is the key; a fallback to `en`; an error).
    private static func version(in reply: [String: Any]) -> Int? {
        guard reply["ok"] as? Bool == true, reply["found"] as? Bool == true, reply["lang"] as? String == "ja",
            let value = reply["value"] as? String, value.hasPrefix(greetingPrefix)
        else { return nil }
        return Int(value.dropFirst(greetingPrefix.count))
    }

    private static func isServedInJapanese(_ reply: [String: Any], value: String) -> Bool {
        reply["ok"] as? Bool == true && reply["found"] as? Bool == true && reply["lang"] as? String == "ja"
            && reply["value"] as? String == value
    }

    private static func line(_ request: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    }

    /// The served greeting's text before its version number.
    static let greetingPrefix = "こんにちは v"
}
