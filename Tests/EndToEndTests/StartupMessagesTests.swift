import Foundation
import Glibc
import TestSupport
import Testing

/// The start-up messages an operator meets first name the fix, with the built daemon: no
/// resource directory at all, a root the daemon's user may not read, and a socket directory
/// it may not write (`bind(…) failed: Permission denied` named neither the directory, nor
/// the user, nor a fix). Permission faults need an ordinary user: tests run as root.
@Suite struct StartupMessagesTests {
    static let nobody: UInt32 = 65534

    @Test func noResourcesSaysHowToGiveOne() throws {
        let daemon = try DaemonProcess(resources: [])
        let line =
            "serving nothing on \(daemon.socketPath): no resource directory is configured (give --config FILE "
            + "with resources = DIR, or --resources DIR)"
        // The socket answers before the line reaches the log file on a loaded machine: wait for it.
        let deadline = Date().addingTimeInterval(20)
        while !daemon.log.contains(line) && Date() < deadline { usleep(20_000) }
        #expect(daemon.log.contains(line), "\(daemon.log)")
        #expect(!daemon.log.contains("from  on"), "\(daemon.log)")
        let problems = try #require(try daemon.request(["op": "status"])["problems"] as? [String])
        #expect(
            problems == ["no resource directory is configured (give resources = DIR in l10nd.conf, or --resources DIR)"]
        )
        #expect(daemon.stop() == 0)
    }

    /// A root of mode 0700 owned by root, for a daemon running as nobody: a permission to
    /// give, said as such — not "holds no language", not "tables read before are kept".
    @Test func anUnreadableRootNamesThePermission() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-unreadable")
        _ = try directory.write("\"k\" = \"v\";\n", to: "root/ja.lproj/Localizable.strings")
        #expect(chmod(directory.path, 0o755) == 0 && chmod(directory.path + "/root", 0o700) == 0)
        let daemon = try DaemonProcess(resources: [directory.path + "/root"], user: Self.nobody)
        let problems = try #require(try daemon.request(["op": "status"])["problems"] as? [String])
        #expect(
            problems.first == "resource root \(directory.path)/root cannot be reached: permission denied (the user it "
                + "runs as needs search (x) permission on every directory above it and read permission on it; with "
                + "systemd's DynamicUser=yes a home directory of mode 0700 is out of reach)", "\(problems)")
        #expect(!daemon.log.contains("holds no language"), "\(daemon.log)")
        #expect(!daemon.log.contains("the tables read from it before are kept"), "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }

    @Test func anUnwritableSocketDirectoryNamesTheDirectoryTheUserAndTheFix() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-socket-dir")
        #expect(chmod(directory.path, 0o755) == 0)
        let output = try ProcessRunner.run(
            "/usr/bin/setpriv",
            [
                "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", PackagePaths.executable("l10nd"),
                "--resources", PackagePaths.exampleResources, "--socket", directory.path + "/l10nd.sock",
            ], timeout: 20)
        #expect(output.status == 1)
        #expect(
            output.stderr.contains("bind(\(directory.path)/l10nd.sock) failed: Permission denied"), "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "the socket directory \(directory.path) is not writable by the user l10nd runs as, nobody (uid 65534): "
                    + "make it that user's (chown nobody \(directory.path))"), "\(output.stderr)")
        #expect(output.stderr.contains("RuntimeDirectory=l10nd"), "\(output.stderr)")
    }
}
