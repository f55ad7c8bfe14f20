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
        let said = lines.withLock { $0 }
        // One line for the keys past the cap (the first), one at the end: not one per report.
        #expect(said.count == 2, "\(said)")
        #expect(
            said.last
                == "l10nd-client: 4096 misses and fallbacks answered in place were not reported to l10nd's "
                + "missing-key report (0 past the 4096 keys that may wait, 4096 that could not be sent)",
            "\(said)")
        #expect(
            said.first
                == "l10nd-client: 904 misses and fallbacks answered in place were not reported to l10nd's "
                + "missing-key report (904 past the 4096 keys that may wait, 0 that could not be sent)",
            "\(said)")
    }
}
