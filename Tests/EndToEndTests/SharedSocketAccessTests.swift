// `stat` comes through CSharedMemory here: this test target imports it (MappedModeTests), and
// its header includes <sys/stat.h> first, so clang credits the declarations to it.
import CSharedMemory
import Foundation
import TestSupport
import Testing

/// The access scheme docs/DEPLOY.md gives a socket shared with other pods or users (the
/// DaemonSet's hostPath): the daemon's socket is 0660 in the daemon's group, so a client
/// in that group (a pod's `supplementalGroups`) looks strings up, a client outside it
/// cannot connect, and a client in the group still may not `reload`. Real users, through
/// `setpriv`: the tests run as root, to whom file permissions do not apply.
@Suite struct SharedSocketAccessTests {
    /// The daemon's user and group (as `runAsUser`/`runAsGroup` would set them).
    static let daemonUser: UInt32 = 2001
    /// An application's own user.
    static let clientUser = 1000

    func l10nctl(_ arguments: [String], groups: String?, socket: String) throws -> ProcessOutput {
        let identity =
            ["--reuid=\(Self.clientUser)", "--regid=\(Self.clientUser)"]
            + (groups.map { ["--groups=\($0)"] } ?? ["--clear-groups"])
        return try ProcessRunner.run(
            "/usr/bin/setpriv", identity + [PackagePaths.executable("l10nctl")] + arguments + ["--socket", socket])
    }

    @Test func theSocketsGroupMayLookUpAndNobodyElseMayConnect() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-shared-socket")
        try resources.write("\"greeting\" = \"こんにちは\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path], user: Self.daemonUser)
        var info = stat()
        #expect(stat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(info.st_gid == Self.daemonUser)

        let member = try l10nctl(
            ["get", "greeting", "--lang", "ja"], groups: "\(Self.daemonUser)", socket: daemon.socketPath)
        #expect(member.status == 0, "\(member.stderr)")
        #expect(member.stdout == "こんにちは\n")

        let stranger = try l10nctl(["get", "greeting", "--lang", "ja"], groups: nil, socket: daemon.socketPath)
        #expect(stranger.status != 0)
        #expect(stranger.stdout.isEmpty)

        let reload = try l10nctl(["reload"], groups: "\(Self.daemonUser)", socket: daemon.socketPath)
        #expect(reload.status != 0)
        #expect(reload.stderr.contains("forbidden"), "\(reload.stderr)")
    }
}
