import Foundation
import Glibc
import TestSupport
import Testing

/// One time limit for every `l10nctl` command that talks to l10nd, and `--timeout` on each
/// (an outside tester's find: `get` gave up after 20 s, the others after 10, and only
/// `reload` took `--timeout`). A stopped daemon (SIGSTOP: it holds the socket, the kernel
/// takes the connection, nothing answers) shows how long each one waits.
@Suite struct DaemonTimeoutTests {
    static let commands: [[String]] = [
        ["get", "k", "--lang", "en"], ["status"], ["reload"], ["missing"], ["reset"], ["metrics"], ["languages"],
        ["watch"],
    ]

    /// A daemon serving one key, then stopped.
    static func stoppedDaemon() throws -> (TemporaryDirectory, DaemonProcess) {
        let root = try TemporaryDirectory()
        try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [root.path])
        #expect(daemon.suspend())
        return (root, daemon)
    }

    func l10nctl(_ arguments: [String]) throws -> (output: ProcessOutput, seconds: Double) {
        let start = Date()
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        return (output, Date().timeIntervalSince(start))
    }

    @Test func everyCommandGivesUpAfterTimeoutAndSaysSo() throws {
        let (root, daemon) = try Self.stoppedDaemon()
        defer { withExtendedLifetime(root) { daemon.send(signal: SIGCONT) } }
        for command in Self.commands {
            let (output, seconds) = try l10nctl(command + ["--socket", daemon.socketPath, "--timeout", "1"])
            #expect(output.status == 1, "\(command): \(output)")
            #expect(
                output.stderr.contains("l10nd on \(daemon.socketPath) did not answer within 1 s (give --timeout"),
                "\(command): \(output.stderr)")
            #expect(seconds < 6, "\(command) took \(seconds) s")
        }
    }

    /// Without `--timeout`, `get` waits the 10 s every command waits, not twice that.
    @Test func getWaitsTheDefaultOnce() throws {
        let (root, daemon) = try Self.stoppedDaemon()
        defer { withExtendedLifetime(root) { daemon.send(signal: SIGCONT) } }
        let (output, seconds) = try l10nctl(["get", "k", "--lang", "en", "--socket", daemon.socketPath])
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains("did not answer within 10 s"), "\(output.stderr)")
        #expect(seconds >= 9.5 && seconds < 16, "get took \(seconds) s")
    }

    @Test(arguments: ["0", "-1", "never", "inf", "86401"])
    func aTimeoutThatIsNoDurationIsAUsageError(value: String) throws {
        let (output, _) = try l10nctl(["status", "--timeout", value, "--socket", "/nonexistent/l10nd.sock"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("--timeout takes a number of seconds"), "\(output.stderr)")
    }

    /// A command that does not talk to l10nd says so rather than ignoring the option.
    @Test func aCommandThatDoesNotAskTheDaemonRefusesTimeout() throws {
        let (output, _) = try l10nctl(["dump", "x.strings", "--timeout", "5"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("dump does not use --timeout"), "\(output.stderr)")
    }

    @Test func theHelpOfEachCommandNamesTimeout() throws {
        for command in Self.commands.map(\.[0]) + ["report"] {
            let (output, _) = try l10nctl(["help", command])
            #expect(output.stdout.contains("--timeout SECONDS"), "\(command): \(output.stdout)")
        }
    }
}
