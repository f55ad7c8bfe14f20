import Foundation
import TestSupport
import Testing

@testable import Localization

/// While l10nd is away, misses answered in place wait for the connection to come back, as the
/// C library's do: no report is tried however many misses come (each lookup 200 ms after the
/// last try tried again, finding no connection), and the connection coming back sends them,
/// with no further miss. In the exit hook's serialized suite: the hook flushes every live
/// reporter, which would count as a try.
extension MissReporterExitTests {
    @Test func heldMissesWaitForTheConnectionAndReachTheRestartedDaemon() throws {
        let slot = try TemporaryDirectory(prefix: "l10nd-misses")
        // The localizer's socket path is a link to the running daemon's: a restart is a new
        // daemon at the same path.
        let path = slot.path + "/l10nd.sock"
        var daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: daemon.socketPath)
        let lookups = DaemonLookups(socketPath: path, mode: .mapped, timeout: 2, onEvent: { _ in })
        let reporter = lookups.misses
        let table = MissReporter.TableKey(languages: ["ja"], table: "Localizable")
        func reported(by daemon: DaemonProcess) -> Set<String> {
            let missing = (try? daemon.request(["op": "missing"]))?["missing"] as? [[String: Any]] ?? []
            return Set(missing.compactMap { $0["key"] as? String })
        }

        reporter.record("before", in: table)  // the first is sent at once
        #expect(eventually(10) { reported(by: daemon).contains("before") }, "the first miss never reached the report")
        _ = daemon.stop()
        #expect(eventually(10) { !lookups.client.isConnected }, "the client never saw l10nd go")
        let tries = reporter.sendAttempts
        let held = (0..<6).map { "held.\($0)" }
        for key in held {  // each past the 200 ms interval since the last
            reporter.record(key, in: table)
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(reporter.sendAttempts == tries, "a report was tried while l10nd was away")
        #expect(reporter.hasPending)

        daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: daemon.socketPath)
        // No miss after the restart: the new connection sends what waits.
        #expect(
            eventually(20) { reported(by: daemon).isSuperset(of: held) },
            "the held misses never reached the restarted daemon: \(reported(by: daemon))")
        #expect(reporter.sendAttempts == tries + 1)
        #expect(!reporter.hasPending)
    }
}
