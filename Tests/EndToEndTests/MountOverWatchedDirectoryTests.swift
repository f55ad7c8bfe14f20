import Foundation
import Glibc
import TestSupport
import Testing

/// Outside testers: a tmpfs mounted over a watched `.lproj` went unnoticed — inotify reports
/// no mounts, and the watches stayed on the covered directory — so the daemon served the
/// covered files' tables and missed every edit on the mounted file system. It now hears the
/// mount table change (`POLLPRI` on `/proc/self/mountinfo`) and reads what the mount covers.
///
/// The daemon runs in a mount namespace of its own (`unshare --mount`, root only), where the
/// test mounts with `nsenter`: nothing is mounted on the machine itself.
@Suite struct MountOverWatchedDirectoryTests {
    func value(_ daemon: DaemonProcess) -> String? {
        (try? daemon.request(["op": "lookup", "key": "k", "lang": "xx"]))?["value"] as? String
    }

    @Test func aFileSystemMountedOverAnLprojIsReadAndWatched() throws {
        if let reason = try MountNamespace.unavailableReason() {
            print("skipped: \(reason)")
            return
        }
        let root = try TemporaryDirectory(prefix: "l10nd-mount")
        let lproj = try root.write("\"k\" = \"covered\";\n", to: "xx.lproj/Localizable.strings")
            .replacing("/Localizable.strings", with: "")
        let daemon = try DaemonProcess(resources: [root.path], launcher: MountNamespace.launcher)
        let pid = daemon.process.processIdentifier
        #expect(value(daemon) == "covered")

        let mount = try MountNamespace.run(
            in: pid,
            "mount -t tmpfs l10nd-test \(lproj) && printf '\"k\" = \"mounted\";\\n' > \(lproj)/Localizable.strings")
        try #require(mount.status == 0, "\(mount)")
        #expect(eventually(10) { value(daemon) == "mounted" }, "\(daemon.log)")
        // The mounted file system is watched: an edit there is heard.
        let edit = try MountNamespace.run(
            in: pid,
            "printf '\"k\" = \"edited\";\\n' > \(lproj)/Localizable.strings.tmp && mv \(lproj)/Localizable.strings.tmp \(lproj)/Localizable.strings"
        )
        try #require(edit.status == 0, "\(edit)")
        #expect(eventually(10) { value(daemon) == "edited" }, "\(daemon.log)")
        // Unmounted, the covered directory is served again.
        let unmount = try MountNamespace.run(in: pid, "umount \(lproj)")
        try #require(unmount.status == 0, "\(unmount)")
        #expect(eventually(10) { value(daemon) == "covered" }, "\(daemon.log)")
        #expect(daemon.log.contains("the mount table changed: reading \(lproj) again"), "\(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
