import Foundation
import Glibc
import TestSupport
import Testing

/// What `l10nctl` says when l10nd's socket refuses the user (`EACCES`), run as an ordinary
/// user through `setpriv` (the tests run as root, whom permissions do not stop). An outside
/// tester's find: the hint said to join the group 'root', and to "start l10nd", which was
/// running. Now it names the socket's group as `stat` finds it and the `socket_group` the
/// system configuration sets, never suggests joining `root`, and never starting l10nd.
@Suite struct PermissionHintTests {
    static let user = 1000

    /// A daemon started as root (its socket 0660, group root, or `socket_group`), its socket's
    /// directory open for others to reach the socket itself.
    static func daemon(socketGroup: String? = nil) throws -> (DaemonProcess, TemporaryDirectory) {
        let root = try TemporaryDirectory()
        try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        var arguments: [String] = []
        if let socketGroup {
            arguments = ["--config", try root.write("socket_group = \(socketGroup)\n", to: "l10nd.conf")]
        }
        let daemon = try DaemonProcess(resources: [root.path], arguments: arguments)
        #expect(chmod((daemon.socketPath as NSString).deletingLastPathComponent, 0o755) == 0)
        return (daemon, root)
    }

    /// `l10nctl get` and `status` as the user, in no group, with `configuration` as the
    /// system configuration file.
    func refused(_ daemon: DaemonProcess, configuration: String = "/nonexistent/l10nd.conf") throws -> [ProcessOutput] {
        try [["get", "k", "--lang", "en"], ["status"]].map { command in
            try ProcessRunner.run(
                "/usr/bin/setpriv",
                ["--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", PackagePaths.executable("l10nctl")]
                    + command + ["--socket", daemon.socketPath],
                environment: ["PATH": "/usr/bin:/bin", "L10N_SYSTEM_CONFIG_FOR_TESTS": configuration])
        }
    }

    @Test func aRootOwnedSocketIsNotAGroupToJoin() throws {
        let (daemon, _) = try Self.daemon()
        for output in try refused(daemon) {
            #expect(output.status == 1, "\(output)")
            #expect(output.stderr.contains("permission denied connecting to \(daemon.socketPath)"), "\(output.stderr)")
            #expect(output.stderr.contains("the socket belongs to the group 'root'"), "\(output.stderr)")
            #expect(output.stderr.contains("set socket_group = l10n in l10nd.conf"), "\(output.stderr)")
            #expect(!output.stderr.contains("join the group 'root'"), "\(output.stderr)")
            #expect(!output.stderr.contains("start l10nd, or"), "\(output.stderr)")
        }
    }

    @Test func theSocketsOwnGroupIsNamed() throws {
        let (daemon, _) = try Self.daemon(socketGroup: "2001")
        for output in try refused(daemon) {
            #expect(output.status == 1, "\(output)")
            #expect(
                output.stderr.contains("join the group '2001', which owns the socket (sudo adduser $USER 2001"),
                "\(output.stderr)")
            #expect(!output.stderr.contains("start l10nd, or"), "\(output.stderr)")
        }
    }

    /// The system configuration's `socket_group` is named: as the socket's group when they
    /// agree, and as waiting for a restart when the socket has another.
    @Test func theConfiguredSocketGroupIsNamed() throws {
        let (daemon, root) = try Self.daemon(socketGroup: "2001")
        let agreeing = try root.write("# the service's\nsocket_group = 2001\n", to: "etc/agreeing.conf")
        for output in try refused(daemon, configuration: agreeing) {
            #expect(output.stderr.contains("which owns the socket, \(agreeing)'s socket_group"), "\(output.stderr)")
        }
        let changed = try root.write("socket_group = 2002\n", to: "etc/changed.conf")
        for output in try refused(daemon, configuration: changed) {
            #expect(
                output.stderr.contains(
                    "join the group '2001', which owns the socket (sudo adduser $USER 2001, then log in again); "
                        + "\(changed) sets socket_group = 2002, which l10nd gives the socket it creates when it "
                        + "starts: restart l10nd"),
                "\(output.stderr)")
        }
        let (rootDaemon, _) = try Self.daemon()
        for output in try refused(rootDaemon, configuration: changed) {
            #expect(
                output.stderr.contains("\(changed) sets socket_group = 2002") && output.stderr.contains("join '2002'"),
                "\(output.stderr)")
            #expect(!output.stderr.contains("start l10nd, or"), "\(output.stderr)")
        }
    }
}
