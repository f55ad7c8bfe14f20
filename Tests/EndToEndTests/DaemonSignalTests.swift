import Foundation
import Glibc
import TestSupport
import Testing

/// Signals sent to the real `l10nd`: a SIGHUP storm costs a few full rescans, not one each,
/// and SIGTERM ends an idle daemon at once.
@Suite struct DaemonSignalTests {
    /// A resource directory with one table the test edits, beside a few real languages
    /// (when the shared corpus is there) so a rescan does real work.
    func makeResources() throws -> TemporaryDirectory {
        let resources = try TemporaryDirectory(prefix: "l10nd-signals")
        try resources.write("\"k\" = \"before\";\n", to: "ja.lproj/Edited.strings")
        if let corpus = PackagePaths.corpus {
            for language in ["de", "en", "fr", "ja", "Base"] {
                let source = corpus + "/\(language).lproj"
                guard FileManager.default.fileExists(atPath: source) else { continue }
                try FileManager.default.copyItem(atPath: source, toPath: resources.path + "/copy-\(language).lproj")
            }
        }
        return resources
    }

    /// Sends SIGTERM and measures the seconds until the process has exited (status 0).
    func secondsToExit(afterSigtermTo daemon: DaemonProcess) throws -> TimeInterval {
        let started = Date()
        daemon.send(signal: SIGTERM)
        let status = daemon.stop(timeout: 10)
        let took = Date().timeIntervalSince(started)
        #expect(status == 0, "\(daemon.log)")
        return took
    }

    func rescans(_ daemon: DaemonProcess) throws -> Int {
        let status = try daemon.request(["op": "status"])
        return try #require((status["watcher"] as? [String: Any])?["rescans"] as? Int, "\(status)")
    }

    /// 300 SIGHUPs 10 ms apart (the tester's storm) are coalesced: a SIGHUP arriving while
    /// a rescan waits joins it, so the count of rescans grows by far fewer than 300, and a
    /// `reload` sent right after does not queue behind a backlog. An edit made just before
    /// the last SIGHUP is served once `reload` answers: with `settle_ms = 10000` the watcher
    /// cannot have delivered it yet, so only a rescan started after the signal can have read it.
    @Test func sighupStormIsCoalesced() throws {
        let resources = try makeResources()
        let config = try resources.write("settle_ms = 10000\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(
            resources: [resources.path], arguments: ["--config", config, "--log-level", "info"])
        let before = try rescans(daemon)
        let stormStarted = Date()
        for index in 0..<300 {
            if index == 299 {
                _ = try resources.write("\"k\" = \"after the storm\";\n", to: "ja.lproj/Edited.strings.new")
                #expect(
                    rename(resources.path + "/ja.lproj/Edited.strings.new", resources.path + "/ja.lproj/Edited.strings")
                        == 0)
            }
            daemon.send(signal: SIGHUP)
            usleep(10_000)  // the storm's pace: signals 10 ms apart, the point of the test
        }
        let storm = Date().timeIntervalSince(stormStarted)
        let started = Date()
        let reply = try daemon.request(["op": "reload"])
        let took = Date().timeIntervalSince(started)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        // Generous for a loaded machine: the bound is on a backlog of ~300 rescans, not speed.
        #expect(took < 3, "reload after the storm took \(took) s")
        let value = try daemon.request(["op": "lookup", "key": "k", "lang": "ja", "table": "Edited"])["value"]
        #expect(value as? String == "after the storm")
        let grown = try rescans(daemon) - before
        // Rescans start at least 200 ms apart (CoalescedReload.minimumGap): about 15 over a
        // 3 s storm; the bound follows the storm's real length on a slow machine.
        let bound = min(Int(storm / 0.2) + 3, 40)
        #expect(grown >= 1 && grown <= bound, "300 SIGHUPs in \(storm) s and a reload made \(grown) rescans")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Measures the time from SIGTERM to the process's exit for a daemon with no client:
    /// nothing is owed to anyone, so it must not wait on a timer or a timeout (the inotify
    /// thread's one-second wait was one). About 0.1 s at most on a quiet machine; the bound
    /// is generous for a loaded one and still under the second the old code took.
    @Test func idleDaemonExitsPromptlyOnSigterm() throws {
        let resources = try makeResources()
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--log-level", "info"])
        let took = try secondsToExit(afterSigtermTo: daemon)
        #expect(took < 1, "an idle daemon took \(took) s to exit after SIGTERM")
    }

    /// A client that asks for much and never reads is let go within the drain's stall
    /// bound (`ServerLimits.drainStallTimeout`, 0.5 s) and the daemon exits well before
    /// the drain timeout (5 s).
    @Test func daemonWithNonReadingClientExitsWithinTheStallBound() throws {
        let resources = try makeResources()
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--log-level", "info"])
        // Each `table` reply is about 1 MB, so the socket buffer fills with the first.
        let big = (0..<10_000).map { #""key\#($0)" = "\#(String(repeating: "v", count: 80))";"# }
        _ = try resources.write(big.joined(separator: "\n") + "\n", to: "xx.lproj/Big.strings")
        _ = try daemon.request(["op": "reload"])
        let greedy = try RawSocketClient(path: daemon.socketPath, timeout: 5)
        let requests = (0..<100).map { #"{"op":"table","lang":"xx","table":"Big","id":\#($0)}"# + "\n" }.joined()
        #expect(try greedy.send(Array(requests.utf8)) == .sent)
        #expect(try daemon.request(["op": "hello"])["ok"] as? Bool == true)
        let took = try secondsToExit(afterSigtermTo: daemon)
        #expect(took < 2, "a daemon with a non-reading client took \(took) s to exit after SIGTERM")
        greedy.close()
    }
}
