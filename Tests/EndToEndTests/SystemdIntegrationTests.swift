// `stat` comes through CSharedMemory here: this test target imports it (MappedModeTests), and
// its header includes <sys/stat.h> first, so clang credits the declarations to it.
import CSharedMemory
import Foundation
import Glibc
import TestSupport
import Testing

/// The real `l10nd` as systemd sees it, without systemd: the notify datagrams a
/// `Type=notify` service sends (to a socket the test binds, as systemd binds its own),
/// socket activation through `systemd-socket-activate`, and the command line.
@Suite struct SystemdIntegrationTests {
    static let activator = "/usr/bin/systemd-socket-activate"
    let l10nd = PackagePaths.executable("l10nd")

    @Test func readinessReloadAndStopAreAnnounced() throws {
        let systemd = try NotifySocketListener()
        let daemon = try DaemonProcess(
            resources: [PackagePaths.exampleResources], environment: ["NOTIFY_SOCKET": systemd.path])
        let ready = try systemd.waitFor("READY=1") { $0["READY"] == "1" }
        #expect(systemd.received.first?["READY"] == "1", "something came before READY=1: \(systemd.received)")
        let languages = try #require(try daemon.request(["op": "status"])["languages"] as? Int)
        #expect(ready["STATUS"]?.hasPrefix("Serving \(languages) languages, ") == true, "\(ready)")

        daemon.send(signal: SIGHUP)
        let reloading = try systemd.waitFor("RELOADING=1") { $0["RELOADING"] == "1" }
        #expect(reloading["READY"] == nil)
        #expect(reloading["MONOTONIC_USEC"].flatMap(UInt64.init) != nil, "\(reloading)")
        let reloaded = try systemd.waitFor("READY=1 after the reload") { $0["READY"] == "1" }
        #expect(reloaded["STATUS"]?.hasPrefix("Serving \(languages) languages, ") == true, "\(reloaded)")
        #expect(
            try daemon.request(["op": "lookup", "key": "多言語化", "lang": "de"])["value"] as? String == "Mehrsprachigkeit")

        daemon.send(signal: SIGTERM)
        _ = try systemd.waitFor("STOPPING=1") { $0["STOPPING"] == "1" }
        #expect(daemon.stop() == 0, "\(daemon.log)")
        let order = systemd.received.compactMap { message in
            ["READY", "RELOADING", "STOPPING"].first { message[$0] == "1" }
        }
        #expect(order == ["READY", "RELOADING", "READY", "STOPPING"], "\(systemd.received)")
    }

    /// A root that goes away makes `STATUS=` say "Degraded:", and its return takes that back,
    /// as `status` and `l10nd_degraded` do (an outside tester found `STATUS=` unchanged).
    @Test func statusLineFollowsARootGoneAndBack() throws {
        let parent = try TemporaryDirectory(prefix: "l10nd-status-line")
        let root = parent.path + "/resources"
        try parent.write("resources/en.lproj/Localizable.strings", "\"k\" = \"v\";\n")
        let systemd = try NotifySocketListener()
        let daemon = try DaemonProcess(resources: [root], environment: ["NOTIFY_SOCKET": systemd.path])
        defer { _ = daemon.stop() }
        _ = try systemd.waitFor("READY=1") { $0["READY"] == "1" }
        #expect(rename(root, root + ".away") == 0)
        _ = try systemd.waitFor("STATUS=Degraded") { $0["STATUS"]?.hasPrefix("Degraded: ") == true }
        #expect(rename(root + ".away", root) == 0)
        _ = try systemd.waitFor("STATUS=Serving") { $0["STATUS"]?.hasPrefix("Serving ") == true }
    }

    /// Who `WATCHDOG_PID` names, if anyone.
    enum WatchdogOwner: String, CaseIterable, Sendable {
        /// Unset: the pings are the daemon's (what `sd_watchdog_enabled` assumes).
        case unset
        /// The daemon's own pid, as systemd sets it for the main process.
        case daemon
        /// Another process (pid 1): the variables were inherited, the daemon must not ping.
        case otherProcess
    }

    /// `WATCHDOG_USEC=200000`: a ping every 100 ms, from the daemon only when the watchdog
    /// is meant for it. The daemon is started through `sh -c 'exec …'` so that the shell can
    /// put the daemon's own pid (`$$` survives `exec`) into `WATCHDOG_PID`.
    @Test(arguments: WatchdogOwner.allCases)
    func watchdogPingsOnlyForItsOwnProcess(owner: WatchdogOwner) throws {
        let systemd = try NotifySocketListener()
        let socketDirectory = try TemporaryDirectory(prefix: "l10nd-watchdog")
        let export =
            switch owner {
            case .unset: ""
            case .daemon: "export WATCHDOG_PID=$$; "
            case .otherProcess: "export WATCHDOG_PID=1; "
            }
        let daemon = try BackgroundProcess(
            "/bin/sh",
            [
                "-c", export + #"exec "$0" "$@""#, l10nd, "--resources", PackagePaths.exampleResources,
                "--socket", socketDirectory.path + "/l10nd.sock",
            ],
            environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "200000"])
        _ = try systemd.waitFor(timeout: 20, "READY=1") { $0["READY"] == "1" }
        let pings = systemd.collect(for: 1.0).filter { $0["WATCHDOG"] == "1" }.count
        switch owner {
        case .unset, .daemon:
            // Ten are due in a second; a loaded machine may delay a few, never most.
            #expect(pings >= 5, "\(pings) WATCHDOG=1 in 1 s: \(systemd.received)")
        case .otherProcess:
            #expect(pings == 0, "pinged for pid 1: \(systemd.received)")
        }
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// `systemd-socket-activate` binds the socket and execs `l10nd` only when the first client
    /// connects (it runs without `--accept`, so the activator's process becomes the daemon,
    /// as systemd hands a `.socket` unit's listener to its service). The daemon answers that
    /// first client, and leaves the socket file, which is not its own, in place on SIGTERM.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: activator), "\(activator) is not installed"))
    func socketActivationStartsTheDaemonOnTheFirstConnection() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-activation")
        let socketPath = directory.path + "/l10nd.sock"
        let activated = try BackgroundProcess(
            Self.activator,
            ["-l", socketPath, l10nd, "--resources", PackagePaths.exampleResources, "--log-level", "info"])
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath) {
            try #require(
                Date() < deadline && activated.process.isRunning, "no socket from the activator: \(activated.log)")
            usleep(10_000)
        }
        // Listening, but nothing has connected: still the activator, no daemon yet (a window
        // in which no daemon may start, which no event ends).
        usleep(300_000)
        #expect(activated.currentExecutable == Self.activator)
        #expect(!activated.log.contains("serving"), "\(activated.log)")

        // bind() and listen() are two steps: a connect in between is refused, not queued.
        var client: JSONLineClient?
        while client == nil {
            client = try? JSONLineClient(path: socketPath, timeout: 20)
            if client == nil {
                try #require(Date() < deadline, "cannot connect to the activator's socket")
                usleep(10_000)
            }
        }
        let reply = try #require(client).request(["op": "lookup", "key": "多言語化", "lang": "ja_JP.UTF-8", "id": 1])
        #expect(reply["value"] as? String == "多言語化")
        #expect(reply["lang"] as? String == "ja")
        #expect(reply["found"] as? Bool == true)
        #expect(activated.currentExecutable == l10nd)
        #expect(activated.log.contains("socket activation"), "\(activated.log)")
        // The adopted listener keeps accepting.
        #expect(
            try JSONLineClient(path: socketPath).request(["op": "lookup", "key": "保存", "lang": "fr"])["value"]
                as? String == "Enregistrer")
        client = nil

        activated.send(signal: SIGTERM)
        #expect(activated.waitForExit(timeout: 10) == 0, "\(activated.log)")
        var status = stat()
        #expect(
            lstat(socketPath, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK,
            "the activator's socket file was removed")
    }

    @Test(arguments: ["--help", "-h"])
    func helpListsEveryFlagAndExitsZero(flag: String) throws {
        let result = try ProcessRunner.run(l10nd, [flag])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("\nUsage: l10nd "), "\(result.stdout)")
        for option in [
            "--config", "--resources", "--socket", "--development-language", "--log-level", "--settle-ms", "--help",
            "--version",
        ] {
            #expect(result.stdout.contains(option), "\(option) is not in --help")
        }
    }

    @Test func versionIsWhatTheRunningDaemonSays() throws {
        let result = try ProcessRunner.run(l10nd, ["--version"])
        #expect(result.status == 0)
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let version = try #require(try daemon.request(["op": "hello"])["version"] as? String)
        #expect(result.stdout == "l10nd \(version)\n")
        #expect(
            version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil },
            "\(version)")
    }
}
