import Foundation
import Glibc
import TestSupport
import Testing

/// `l10nctl watch` across a daemon restart: the real `l10nd` killed, another started on the
/// same socket, and the next change still printed.
@Suite struct L10nctlWatchReconnectTests {
    /// Waits (at most `timeout` seconds) until `read()` satisfies `condition`; returns the
    /// last text read.
    func wait(
        _ timeout: TimeInterval, for condition: (String) -> Bool, reading read: () -> String
    ) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = read()
        while !condition(text), Date() < deadline {
            usleep(20_000)
            text = read()
        }
        return text
    }

    func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// `l10nctl watch --socket socket`, started, its output and errors written to files in
    /// `output`; killed by `end` unless it ended already.
    struct Watch {
        let process = Process()
        let stdoutPath: String
        let stderrPath: String

        init(socket: String, output: TemporaryDirectory) throws {
            stdoutPath = try output.write("", to: "watch.out")
            stderrPath = try output.write("", to: "watch.err")
            process.executableURL = URL(fileURLWithPath: PackagePaths.executable("l10nctl"))
            process.arguments = ["watch", "--socket", socket]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
            try process.run()
        }

        func end() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test func watchReconnectsAfterADaemonRestartAndEndsOnSIGTERM() throws {
        let resources = try TemporaryDirectory()
        let table = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let first = try DaemonProcess(resources: [resources.path])
        let socket = first.socketPath
        let output = try TemporaryDirectory()
        let started = try Watch(socket: socket, output: output)
        defer { started.end() }
        let (watch, stdoutPath, stderrPath) = (started.process, started.stdoutPath, started.stderrPath)
        _ = wait(20, for: { $0.contains("watching") }, reading: { contents(stderrPath) })

        // A crash, not a clean stop: the socket file is left behind for the next daemon.
        first.send(signal: SIGKILL)
        first.process.waitUntilExit()
        let lost = wait(20, for: { $0.contains("went away") }, reading: { contents(stderrPath) })
        #expect(lost.contains("l10nctl: l10nd on \(socket) went away"), "\(lost)")

        let second = try BackgroundProcess(
            PackagePaths.executable("l10nd"), ["--resources", resources.path, "--socket", socket])
        let back = wait(60, for: { $0.contains("reconnected") }, reading: { contents(stderrPath) })
        #expect(back.contains("l10nctl: reconnected to l10nd on \(socket) at generation 1"), "\(back)\n\(second.log)")

        try "\"k\" = \"new\";\n".write(toFile: table, atomically: true, encoding: .utf8)
        let changes = wait(30, for: { $0.contains("\n") }, reading: { contents(stdoutPath) })
        #expect(changes == "generation 2: ja/Localizable\n", "\(contents(stderrPath))")

        kill(watch.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while watch.isRunning, Date() < deadline { usleep(10_000) }
        #expect(!watch.isRunning, "watch did not end on SIGTERM")
        #expect(watch.terminationReason == .uncaughtSignal && watch.terminationStatus == SIGTERM)
    }

    /// Outside testers: at the daemon's connection limit `watch` exited 1, though the daemon
    /// was there and would take it once a client left. It retries, as after a loss.
    @Test func watchAtTheConnectionLimitRetriesUntilTheDaemonTakesIt() throws {
        let resources = try TemporaryDirectory()
        let table = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let configuration = try TemporaryDirectory(prefix: "l10nd-conf")
        let config = try configuration.write("max_connections = 1\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--config", config])
        // Holds the one connection; answered, so it is in the daemon's table (the start-up
        // probe's connection may not be closed there yet: then this one is refused, and retried).
        var holder: JSONLineClient?
        #expect(
            eventually {
                holder = try? daemon.connect()
                return (try? holder?.request(["op": "hello"]))??["ok"] as? Bool == true
            })
        let output = try TemporaryDirectory()
        let watch = try Watch(socket: daemon.socketPath, output: output)
        defer { watch.end() }

        let refused = wait(20, for: { $0.contains("retrying") }, reading: { contents(watch.stderrPath) })
        #expect(
            refused.contains(
                "l10nctl: l10nd on \(daemon.socketPath) refused the connection (l10nd is at its connection limit (max_connections = 1); try again later); retrying"
            ), "\(refused)")
        #expect(watch.process.isRunning, "watch ended at the connection limit: \(refused)")

        holder = nil
        let back = wait(60, for: { $0.contains("watching") }, reading: { contents(watch.stderrPath) })
        #expect(back.contains("l10nctl: reconnected to l10nd on \(daemon.socketPath) at generation 1"), "\(back)")
        try "\"k\" = \"new\";\n".write(toFile: table, atomically: true, encoding: .utf8)
        let changes = wait(30, for: { $0.contains("\n") }, reading: { contents(watch.stdoutPath) })
        #expect(changes == "generation 2: ja/Localizable\n", "\(contents(watch.stderrPath))")
    }

    @Test func watchWithNoDaemonFailsAtOnceNamingTheFix() throws {
        let result = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), ["watch", "--socket", "/tmp/l10nd-no-such-dir/none.sock"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("start l10nd, or give --socket PATH or L10N_SOCKET"), "\(result.stderr)")
    }
}
