import Foundation
import TestSupport

/// Asks the daemon without pause, on its own thread, for every key of each language in one
/// `batch` (so each answer is one snapshot), and how many languages it serves; keeps every
/// answer a check rejects. The proof that no reader sees a state between two good ones while
/// files are rewritten, directories renamed or releases switched.
///
/// Values in these tests name where they come from, `ORIGIN:KEY` (`42-ja:k07`): a batch
/// whose values come from more than one origin is a half-loaded table, and a value without
/// its key's suffix is the key itself (found nowhere).
///
/// ```swift
/// let poller = try ConsistencyPoller(daemon: daemon, languages: ["ja"], keys: keys) { language, origin in
///     origin.hasPrefix("ja") ? nil : "fell back to \(origin)"
/// }
/// // … rewrite files …
/// #expect(poller.stop().failures.isEmpty)
/// ```
final class ConsistencyPoller: @unchecked Sendable {
    /// What the poller saw between its start and ``stop()``.
    struct Report {
        /// Rounds completed (one batch per language, and the language count, each).
        var rounds: Int
        /// Each rejected answer or error, in order (at most the first 20).
        var failures: [String]
    }

    /// Whether a batch's single origin is acceptable for `language`: `nil` when it is, else why not.
    typealias OriginCheck = @Sendable (_ language: String, _ origin: String) -> String?

    private let client: JSONLineClient
    private let lock = NSLock()
    private var report = Report(rounds: 0, failures: [])
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    /// Starts polling `languages` for `keys`; with `minimumLanguages`, also fails any round in
    /// which the daemon serves fewer languages.
    init(
        daemon: DaemonProcess, languages: [String], keys: [String], minimumLanguages: Int = 0,
        check: @escaping OriginCheck
    ) throws {
        client = try daemon.connect(timeout: 10)
        let thread = Thread { [self] in
            var connected = true
            while connected, lock.withLock({ running }) {
                var problems: [String] = []
                do {
                    for language in languages {
                        let reply = try client.request(["op": "batch", "lang": language, "keys": keys])
                        if let problem = Self.problem(in: reply, language: language, keys: keys, check: check) {
                            problems.append(problem)
                        }
                    }
                    if minimumLanguages > 0 {
                        let served = (try client.request(["op": "languages"])["languages"] as? [Any])?.count ?? 0
                        if served < minimumLanguages { problems.append("only \(served) languages served") }
                    }
                } catch {
                    // A broken connection stays broken: one failure says it all.
                    problems.append("\(error)")
                    connected = false
                }
                lock.withLock {
                    report.rounds += 1
                    report.failures += problems.prefix(max(0, 20 - report.failures.count))
                }
            }
            finished.signal()
        }
        thread.start()
    }

    /// Why a `batch` reply is not one complete, acceptable table; `nil` when it is.
    private static func problem(
        in reply: [String: Any], language: String, keys: [String], check: OriginCheck
    ) -> String? {
        guard let values = reply["values"] as? [String], values.count == keys.count else {
            return "batch \(language): bad reply \(reply)"
        }
        var origins: Set<String> = []
        for (key, value) in zip(keys, values) {
            guard value.hasSuffix(":" + key) else { return "batch \(language): \(key) answered \(value)" }
            origins.insert(String(value.dropLast(key.count + 1)))
        }
        guard origins.count == 1, let origin = origins.first else {
            return "batch \(language): a mix of \(origins.sorted())"
        }
        return check(language, origin).map { "batch \(language): \($0)" }
    }

    /// Rounds completed so far.
    var rounds: Int { lock.withLock { report.rounds } }

    /// Waits until `count` more rounds have completed, or `timeout` seconds pass.
    @discardableResult
    func waitForRounds(_ count: Int = 3, timeout: TimeInterval = 10) -> Bool {
        let target = rounds + count
        let deadline = Date().addingTimeInterval(timeout)
        while rounds < target, Date() < deadline { usleep(2_000) }
        return rounds >= target
    }

    /// Stops polling and returns what was seen.
    func stop() -> Report {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { report }
    }

    /// A table of `count` keys `k00`… whose values are `ORIGIN:KEY`.
    static func table(_ origin: String, count: Int = 20) -> String {
        keys(count).map { "\"\($0)\" = \"\(origin):\($0)\";\n" }.joined()
    }

    /// The keys of ``table(_:count:)``.
    static func keys(_ count: Int = 20) -> [String] {
        (0..<count).map { String(format: "k%02d", $0) }
    }
}
