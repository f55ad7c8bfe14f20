import Foundation
import Glibc
import TestSupport
import Testing

/// The socket file `l10nd` binds is its owner's alone unless `socket_group` shares it, as
/// `config/l10nd.conf` promises.
@Suite struct DaemonSocketFileTests {
    /// The mode bits and group of the daemon's socket file.
    func permissions(of daemon: DaemonProcess) throws -> (mode: mode_t, group: gid_t) {
        var status = stat()
        try #require(lstat(daemon.socketPath, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        return (status.st_mode & 0o7777, status.st_gid)
    }

    @Test func withoutASocketGroupTheDaemonsOwnGroupMayConnect() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let (mode, group) = try permissions(of: daemon)
        #expect(mode == 0o660)
        #expect(group == getegid())
    }

    @Test func aSocketGroupMayConnect() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-conf")
        // Our own group: the one group any user may give a file it owns.
        let config = try directory.write("socket_group = \(getegid())\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources], arguments: ["--config", config])
        let (mode, group) = try permissions(of: daemon)
        #expect(mode == 0o660)
        #expect(group == getegid())
    }
}
