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

    /// Tests run as root, to whom socket modes do not apply: the client runs as nobody. The
    /// group named is the socket's own, as `stat` finds it (here `users`, given by chgrp), not
    /// the Debian package's `l10n` whatever the socket.
    @Test(.enabled(if: getuid() == 0, "needs root, to run l10nctl as another user"))
    func aRefusedPermissionNamesTheSocketsGroup() throws {
        let system = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let directory = (system.socketPath as NSString).deletingLastPathComponent
        chmod(directory, 0o755)
        #expect(chown(system.socketPath, UInt32.max, 100) == 0)  // users
        let result = try runAsNobody(["status"], system: system.socketPath)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "permission denied connecting to \(system.socketPath): join the group 'users', which owns the socket "
                    + "(sudo adduser $USER users, then log in again)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("'l10n'"), "\(result.stderr)")

        // A directory that cannot be searched hides the socket: its group is named.
        chmod(directory, 0o750)
        #expect(chown(directory, UInt32.max, 100) == 0)
        let hidden = try runAsNobody(["status"], system: system.socketPath)
        #expect(
            hidden.stderr.contains("join the group 'users', which owns its directory \(directory) (sudo adduser"),
            "\(hidden.stderr)")
    }

    func runAsNobody(_ arguments: [String], system: String) throws -> ProcessOutput {
        try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", l10nctl] + arguments,
            environment: [
                "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": "/nonexistent", "L10N_SYSTEM_SOCKET_FOR_TESTS": system,
            ])
    }

    /// A relative `L10N_SOCKET` is taken from the current directory and made absolute, by
    /// l10nctl and by a Swift program's `Localizer` alike (the Python and C clients have tests
    /// of their own): `socket-path` prints the absolute path, `status` reaches the daemon.
    @Test func aRelativeL10nSocketIsTakenFromTheCurrentDirectory() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let directory = (daemon.socketPath as NSString).deletingLastPathComponent
        let name = (daemon.socketPath as NSString).lastPathComponent
        for relative in [name, "./" + name] {
            let path = try ProcessRunner.run(
                l10nctl, ["socket-path"], environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": relative],
                currentDirectory: directory)
            #expect(path.stdout == daemon.socketPath + "\n", "\(path.stdout)\(path.stderr)")
            let status = try ProcessRunner.run(
                l10nctl, ["status"], environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": relative],
                currentDirectory: directory)
            #expect(status.status == 0, "\(status.stderr)")
        }
        // This process's own directory: the path up to / and down to the socket.
        let here = FileManager.default.currentDirectoryPath
        let up = here.split(separator: "/").map { _ in ".." }.joined(separator: "/")
        let relative = up + daemon.socketPath
        #expect(!relative.hasPrefix("/"))
        let localizer = Localizer(environment: ["L10N_SOCKET": relative], log: { _ in })
        #expect(localizer.mode == .mapped)
        let answer = localizer.lookupWithSource("保存", languages: ["fr"])
        #expect(answer.result.value == "Enregistrer")
        #expect(answer.source == .daemon)
    }
}
