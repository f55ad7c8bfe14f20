import Foundation
import TestSupport
import Testing

@testable import Localization

/// The built `l10nctl` (a Swift program on the client library) finds l10nd by the clients'
/// socket rule: `L10N_SOCKET`, else the per-user socket if it exists, else the system socket
/// (here a temp path through the test-only `L10N_SYSTEM_SOCKET_FOR_TESTS`).
@Suite struct SocketRuleTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String], _ environment: [String: String]) throws -> ProcessOutput {
        try ProcessRunner.run(l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    @Test func withOnlyTheSystemSocketAndNoL10nSocketItIsFound() throws {
        let runtime = try TemporaryDirectory()
        let system = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "L10N_SYSTEM_SOCKET_FOR_TESTS": system.socketPath]
        #expect(try run(["socket-path"], environment).stdout == system.socketPath + "\n")
        let status = try run(["status"], environment)
        #expect(status.status == 0, "\(status.stderr)")
        let got = try run(["get", "保存", "--lang", "fr"], environment)
        #expect(got.stdout == "Enregistrer\n", "\(got.stderr)")
    }

    /// A Swift program with nothing configured (`Localizer.shared`'s way: no `L10N_MODE`, no
    /// `L10N_SOCKET`) asks the daemon the rule finds, and reads the files itself when none is.
    @Test func aSwiftProgramWithNothingConfiguredFindsTheSystemDaemon() throws {
        let runtime = try TemporaryDirectory()
        let system = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let found = Localizer(
            environment: ["XDG_RUNTIME_DIR": runtime.path, "L10N_SYSTEM_SOCKET_FOR_TESTS": system.socketPath],
            log: { _ in })
        #expect(found.mode == .mapped)
        let answer = found.lookupWithSource("保存", languages: ["fr"])
        #expect(answer.result.value == "Enregistrer")
        #expect(answer.source == .daemon)
        let none = Localizer(
            environment: [
                "XDG_RUNTIME_DIR": runtime.path, "L10N_SYSTEM_SOCKET_FOR_TESTS": runtime.path + "/none.sock",
                "L10N_RESOURCES": PackagePaths.exampleResources,
            ],
            log: { _ in })
        #expect(none.mode == .embedded)
        #expect(none.lookup("保存", languages: ["fr"]).value == "Enregistrer")
    }

    @Test func thePerUserSocketComesFirstOnceItExists() throws {
        let runtime = try TemporaryDirectory()
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "L10N_SYSTEM_SOCKET_FOR_TESTS": "/nonexistent/system.sock"]
        #expect(try run(["socket-path"], environment).stdout == "/nonexistent/system.sock\n")
        // A daemon started by the user without --socket listens on the per-user path.
        let daemon = try BackgroundProcess(
            PackagePaths.executable("l10nd"), ["--resources", PackagePaths.exampleResources],
            environment: ["XDG_RUNTIME_DIR": runtime.path])
        let perUser = runtime.path + "/l10nd/l10nd.sock"
        var answered = false
        for _ in 0..<1000 where !answered {
            answered = (try? JSONLineClient(path: perUser, timeout: 5).request(["op": "hello"]))?["ok"] as? Bool == true
            if !answered { usleep(20_000) }
        }
        #expect(answered, "\(daemon.log)")
        #expect(try run(["socket-path"], environment).stdout == perUser + "\n")
        #expect(
            try run(["socket-path"], environment.merging(["L10N_SOCKET": "/run/x.sock"]) { $1 }).stdout
                == "/run/x.sock\n")
    }

    @Test func noDaemonNamesEveryPathTried() throws {
        let runtime = try TemporaryDirectory()
        let system = runtime.path + "/system.sock"
        let result = try run(["status"], ["XDG_RUNTIME_DIR": runtime.path, "L10N_SYSTEM_SOCKET_FOR_TESTS": system])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "no l10nd is listening on \(system) (tried \(runtime.path)/l10nd/l10nd.sock: no such socket, then \(system);"
            ), "\(result.stderr)")
    }

    /// Tests run as root, to whom socket modes do not apply: the client runs as nobody.
    @Test(.enabled(if: getuid() == 0, "needs root, to run l10nctl as another user"))
    func aRefusedPermissionNamesTheGroupToJoin() throws {
        let system = try DaemonProcess(resources: [PackagePaths.exampleResources])
        chmod((system.socketPath as NSString).deletingLastPathComponent, 0o755)
        let result = try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", l10nctl, "status"],
            environment: [
                "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": "/nonexistent",
                "L10N_SYSTEM_SOCKET_FOR_TESTS": system.socketPath,
            ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("permission denied connecting to \(system.socketPath): join the group 'l10n'"),
            "\(result.stderr)")
    }
}
