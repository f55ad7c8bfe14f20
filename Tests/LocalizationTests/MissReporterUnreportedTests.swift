import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Misses answered in place that cannot be reported are said, never dropped silently: keys
/// past the 4,096 that may wait, and those of a batch that could not be sent, are counted in
/// one line on standard error (the C library's words) at most once a minute and at the end.
/// In the exit hook's serialized suite: the hook it runs says every live reporter's leftovers.
extension MissReporterExitTests {
    /// The daemon killed, 5,000 distinct misses: 4,096 wait (each report that finds l10nd
    /// away holds them again), 904 are past them; at the reporter's end none was sent.
    @Test func keysPastTheCapAndUnsentOnesAreSaid() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = LocalizationClient(socketPath: daemon.socketPath, timeout: 10)
        let lines = Mutex<[String]>([])
        let table = MissReporter.TableKey(languages: ["ja"], table: "Localizable")
        do {
            let reporter = MissReporter(sendingThrough: client) { line in lines.withLock { $0.append(line) } }
            reporter.record("before", in: table)  // the first is sent at once, and answered
            #expect(
                eventually(10) {
                    let missing = (try? daemon.request(["op": "missing"]))?["missing"] as? [[String: Any]] ?? []
                    return missing.contains { $0["key"] as? String == "before" }
                }, "the first miss never reached the report")
            _ = daemon.stop()
            #expect(eventually(10) { !client.isConnected }, "the client never saw l10nd go")
            for index in 0..<5000 { reporter.record("key.\(index)", in: table) }
            // A report now finds l10nd away: the keys wait again, and the cap is said at once.
            Thread.sleep(forTimeInterval: 0.25)
            reporter.record("key.0", in: table)
            reporter.flush()
            #expect(reporter.hasPending)
        }
        let words = try Regex(
            #"l10nd-client: (\d+) misses and fallbacks answered in place were not reported to l10nd's "#
                + #"missing-key report \((\d+) past the 4096 keys that may wait, (\d+) that could not be sent\)"#)
        let said = lines.withLock { $0 }.map { line in
            (try? words.wholeMatch(in: line)).map { match in (1...3).map { Int(match.output[$0].substring!)! } }
        }
        #expect(!said.contains { $0 == nil }, "\(lines.withLock { $0 })")
        let counts = said.compactMap { $0 }
        // The keys past the cap are said by the first report after them (one made during the
        // loop may say part of them), the rest at the end: not one line per report.
        #expect(counts.count <= 2 && counts.last?[2] == 4096, "\(counts)")
        #expect(counts.map { $0[1] }.reduce(0, +) == 904 && counts.map { $0[2] }.reduce(0, +) == 4096, "\(counts)")
        #expect(counts.allSatisfy { $0[0] == $0[1] + $0[2] }, "\(counts)")
    }
}
