import Foundation
import Glibc
import TestSupport
import Testing

/// `l10nctl reload` and SIGHUP read `l10nd.conf` again, with the built daemon: a new
/// resource root and log level take effect, the socket waits for a restart and says so, and
/// a broken file keeps the running configuration with the reason in the reply, the log and
/// `status`.
@Suite struct ConfigurationReloadTests {
    /// Two roots whose `ja` says which one served it, and a configuration naming the first.
    struct Setup {
        let directory: TemporaryDirectory
        let first: String
        let second: String
        let config: String

        init() throws {
            directory = try TemporaryDirectory(prefix: "l10nd-config-reload")
            first = directory.path + "/first"
            second = directory.path + "/second"
            _ = try directory.write("\"k\" = \"from first\";\n", to: "first/ja.lproj/Localizable.strings")
            _ = try directory.write("\"k\" = \"from second\";\n", to: "second/ja.lproj/Localizable.strings")
            config = try directory.write("resources = first\nlog_level = notice\n", to: "l10nd.conf")
        }

        func daemon() throws -> DaemonProcess {
            try DaemonProcess(resources: [], arguments: ["--config", config], logLevel: nil)
        }

        func write(_ text: String) throws { _ = try directory.write(text, to: "l10nd.conf") }
    }

    func lookup(_ daemon: DaemonProcess, table: String = "Localizable") throws -> String? {
        try daemon.request(["op": "lookup", "key": "k", "lang": "ja", "table": table])["value"] as? String
    }

    func configuration(_ daemon: DaemonProcess) throws -> [String: Any] {
        try #require(try daemon.request(["op": "status"])["configuration"] as? [String: Any])
    }

    func reload(_ daemon: DaemonProcess) throws -> ProcessOutput {
        try ProcessRunner.run(PackagePaths.executable("l10nctl"), ["reload", "--socket", daemon.socketPath])
    }

    /// A changed `resources =` and `log_level` are in effect after `l10nctl reload`: the new
    /// root is served, and an info line (a generation applied) is logged that `notice` kept out.
    @Test func reloadAppliesANewRootAndLogLevel() throws {
        let setup = try Setup()
        let daemon = try setup.daemon()
        #expect(try lookup(daemon) == "from first")
        // At notice, an applied edit logs nothing.
        _ = try setup.directory.write("\"k\" = \"from first, edited\";\n", to: "first/ja.lproj/Localizable.strings")
        #expect(try eventually { try lookup(daemon) == "from first, edited" })
        #expect(!daemon.log.contains("generation "), "\(daemon.log)")

        try setup.write("resources = second\nlog_level = info\n")
        let output = try reload(daemon)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.contains("configuration: resources \(setup.second) (was \(setup.first))"), "\(output.stdout)")
        #expect(output.stdout.contains("configuration: log_level info (was notice)"), "\(output.stdout)")
        #expect(try lookup(daemon) == "from second")
        let status = try daemon.request(["op": "status"])
        #expect(status["roots"] as? [String] == [setup.second])
        #expect(try configuration(daemon)["reloads"] as? Int == 1)
        #expect(daemon.log.contains("configuration read again from \(setup.config)"), "\(daemon.log)")

        // At info, the new root's edits are served and logged: the new watcher and level both hold.
        _ = try setup.directory.write("\"k\" = \"from second, edited\";\n", to: "second/ja.lproj/Localizable.strings")
        #expect(try eventually { try lookup(daemon) == "from second, edited" })
        #expect(try eventually { daemon.log.contains("generation ") }, "\(daemon.log)")
        // The old root is no longer watched nor served.
        _ = try setup.directory.write("\"k\" = \"first again\";\n", to: "first/ja.lproj/Localizable.strings")
        usleep(300_000)
        #expect(try lookup(daemon) == "from second, edited")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// A file that no longer parses keeps everything running as it was: `l10nctl reload`
    /// fails naming the line, SIGHUP logs it, `status` shows it until a good file is read.
    @Test func brokenConfigurationKeepsTheRunningOne() throws {
        let setup = try Setup()
        let daemon = try setup.daemon()
        try setup.write("resources = second\nsetle_ms = 5\n")
        let output = try reload(daemon)
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stderr.contains("the configuration was not reloaded"), "\(output.stderr)")
        #expect(
            output.stderr.contains("l10nd.conf:2: unknown key 'setle_ms' (did you mean 'settle_ms'?)"),
            "\(output.stderr)")
        #expect(try lookup(daemon) == "from first")
        let error = try #require(try configuration(daemon)["last_error"] as? String)
        #expect(error.contains("setle_ms"))
        #expect(daemon.log.contains("configuration not reloaded, the running one is kept"), "\(daemon.log)")

        // SIGHUP reads it too: a development language that is no tag is refused the same way.
        try setup.write("resources = second\ndevelopment_language = 1x\n")
        daemon.send(signal: SIGHUP)
        #expect(
            try eventually {
                (try configuration(daemon)["last_error"] as? String)?.contains("development_language") == true
            })
        #expect(try lookup(daemon) == "from first")

        // Fixed: applied, and the error is gone.
        try setup.write("resources = second\n")
        #expect(try reload(daemon).status == 0)
        #expect(try lookup(daemon) == "from second")
        #expect(try configuration(daemon)["last_error"] is NSNull)
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// The socket is bound at start: a new `socket =` is named as waiting for a restart, in
    /// the reply, the log and `status`, and the daemon goes on listening where it was.
    @Test func socketChangeWaitsForARestart() throws {
        let setup = try Setup()
        let daemon = try DaemonProcess(resources: [], arguments: ["--config", setup.config], logLevel: nil)
        // The test's `--socket` flag overrides the file; a group is read from the file alone.
        try setup.write("resources = first\nlog_level = notice\nsocket_group = \(getegid())\n")
        let output = try reload(daemon)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("configuration: socket_group \(getegid())"), "\(output.stdout)")
        #expect(output.stdout.contains("takes effect at the next restart"), "\(output.stdout)")
        let waiting = try #require(try configuration(daemon)["restart_needed"] as? [String])
        #expect(waiting.count == 1 && waiting[0].hasPrefix("socket_group"), "\(waiting)")
        #expect(daemon.log.contains("takes effect at the next restart"), "\(daemon.log)")
        // Said once, as it is: not also "nothing changed", in the reply or the log.
        #expect(!output.stdout.contains("nothing changed"), "\(output.stdout)")
        #expect(!daemon.log.contains("nothing changed"), "\(daemon.log)")
        // `l10nctl status` says it in text, as its JSON does.
        let status = try statusText(daemon)
        #expect(
            status.contains("configuration: socket_group \(getegid()) (was ")
                && status.contains("takes effect at the next restart"),
            "\(status)")
        #expect(try lookup(daemon) == "from first")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// `socket =` itself (the daemon started from the file alone, no `--socket` flag): the
    /// reload says it waits for a restart, and only that.
    @Test func aNewSocketPathIsSaidOnceAsWaitingForARestart() throws {
        let setup = try Setup()
        try setup.write("resources = first\nsocket = first.sock\n")
        let daemon = try BackgroundProcess(PackagePaths.executable("l10nd"), ["--config", setup.config])
        let socket = setup.directory.path + "/first.sock"
        #expect(eventually { (try? JSONLineClient(path: socket, timeout: 5).request(["op": "hello"]))?["ok"] != nil })
        try setup.write("resources = first\nsocket = second.sock\n")
        let output = try ProcessRunner.run(PackagePaths.executable("l10nctl"), ["reload", "--socket", socket])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.contains(
                "configuration: socket \(setup.directory.path)/second.sock (was \(socket)) takes effect at the next restart"
            ),
            "\(output.stdout)")
        #expect(!output.stdout.contains("nothing changed"), "\(output.stdout)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(!daemon.log.contains("nothing changed"), "\(daemon.log)")
        #expect(daemon.log.contains("second.sock takes effect at the next restart"), "\(daemon.log)")
    }

    func statusText(_ daemon: DaemonProcess) throws -> String {
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), ["status", "--socket", daemon.socketPath])
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout
    }

    /// A reload to a development language that is no language (`jp`) and that no root serves
    /// is applied but warned of, as `--check-config` warns: in the reply (`l10nctl reload`
    /// prints it on stderr), the log, and `status` (JSON and text).
    @Test func aDoubtfulDevelopmentLanguageIsWarnedOfAtReload() throws {
        let setup = try Setup()
        let daemon = try setup.daemon()
        try setup.write("resources = first\nlog_level = notice\ndevelopment_language = jp\n")
        let output = try reload(daemon)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("configuration: development_language jp (was en)"), "\(output.stdout)")
        #expect(
            output.stderr.contains("l10nctl: warning: development_language 'jp' is not a language CLDR knows"),
            "\(output.stderr)")
        #expect(
            output.stderr.contains("l10nctl: warning: development_language jp is served by no resource root"),
            "\(output.stderr)")
        let warnings = try #require(try configuration(daemon)["warnings"] as? [String])
        #expect(warnings.count == 2, "\(warnings)")
        #expect(
            eventually { daemon.log.contains("warning: configuration: development_language jp is served by no") },
            "\(daemon.log)")
        let status = try statusText(daemon)
        #expect(status.contains("WARNING: development_language 'jp' is not a language CLDR knows"), "\(status)")

        // A refused reload is in the text too, with the running configuration kept.
        try setup.write("resources = first\nsetle_ms = 5\n")
        #expect(try reload(daemon).status == 1)
        let refused = try statusText(daemon)
        #expect(refused.contains("configuration: the last reload was refused, the running one is kept: "), "\(refused)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// A reload that changes many tables logs one short line: how many, in how many
    /// languages, the first few (one line naming 1,923 tables was 55 KB).
    @Test func aReloadOfManyTablesLogsACappedLine() throws {
        let setup = try Setup()
        for language in ["de", "fr", "ja"] {
            for table in 0..<20 {
                _ = try setup.directory.write("\"k\" = \"\(table)\";\n", to: "many/\(language).lproj/T\(table).strings")
            }
        }
        let daemon = try setup.daemon()
        try setup.write("resources = many\nlog_level = info\n")
        #expect(try reload(daemon).status == 0)
        #expect(eventually { daemon.log.contains(" tables in ") }, "\(daemon.log)")
        let line = try #require(daemon.log.split(separator: "\n").first { $0.contains(" tables in ") })
        // 60 tables of many/ and ja/Localizable of first/ (gone).
        #expect(line.contains("generation 2: 61 tables in 3 languages changed: de/T0, "), "\(line)")
        #expect(line.hasSuffix(", and 51 more (l10nctl watch lists each)"), "\(line)")
        #expect(line.count < 400, "\(line)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Limits change in place, for the connections accepted after the reload: a request
    /// line longer than a new `max_message_bytes` is refused as too large.
    @Test func aNewLimitHoldsForTheNextConnections() throws {
        let setup = try Setup()
        let daemon = try setup.daemon()
        let request: [String: Any] = ["op": "lookup", "key": String(repeating: "k", count: 2_000), "lang": "ja"]
        let before = try daemon.connect().request(request)
        #expect(before["ok"] as? Bool == true, "\(before)")
        try setup.write("resources = first\nlog_level = notice\nmax_message_bytes = 1024\n")
        let output = try reload(daemon)
        #expect(output.stdout.contains("configuration: max_message_bytes 1024 (was 1048576)"), "\(output.stdout)")
        let after = try daemon.connect().request(request)
        #expect((after["error"] as? [String: Any])?["code"] as? String == "too_large", "\(after)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
