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

    @Test func watchReconnectsAfterADaemonRestartAndEndsOnSIGTERM() throws {
        let resources = try TemporaryDirectory()
        let table = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let first = try DaemonProcess(resources: [resources.path])
        let socket = first.socketPath
        let output = try TemporaryDirectory()
        let stdoutPath = try output.write("", to: "watch.out")
        let stderrPath = try output.write("", to: "watch.err")
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: PackagePaths.executable("l10nctl"))
        watch.arguments = ["watch", "--socket", socket]
        watch.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        watch.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try watch.run()
        defer {
            if watch.isRunning { kill(watch.processIdentifier, SIGKILL) }
            watch.waitUntilExit()
        }
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

    @Test func watchWithNoDaemonFailsAtOnceNamingTheFix() throws {
        let result = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), ["watch", "--socket", "/tmp/l10nd-no-such-dir/none.sock"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("start l10nd, or give --socket PATH or L10N_SOCKET"), "\(result.stderr)")
    }
}
