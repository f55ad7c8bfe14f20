import Foundation
import Glibc
import TestSupport
import Testing

/// Chaos round three (issue 24): edits inotify never reports on the watched directory were
/// never served. A file hard-linked into two `.lproj` folders and saved in place changed
/// under both names, but only the folder written through heard of it; a file bind-mounted
/// on its own (`docker -v`, a Kubernetes `subPath`) was read when it appeared, and edits at
/// its source were never seen. The daemon now refreshes every name of a shared inode, and
/// stats such files on a timer (docs/DAEMON.md, "Files inotify does not report").
@Suite struct UnreportedEditTests {
    func value(_ daemon: DaemonProcess, _ language: String) -> String? {
        (try? daemon.request(["op": "lookup", "key": "k", "lang": language]))?["value"] as? String
    }

    /// Writes `text` into the file at `path` in place: the same inode, as `>` or an editor
    /// that saves in place does.
    func writeInPlace(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0, "open \(path): errno \(errno)")
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        try #require(write(descriptor, bytes, bytes.count) == bytes.count)
    }

    @Test func aHardLinkedFileSavedInPlaceIsServedUnderEveryName() throws {
        let root = try TemporaryDirectory(prefix: "l10nd-links")
        let outside = try TemporaryDirectory(prefix: "l10nd-links-outside")
        let english = try root.write("\"k\" = \"one\";\n", to: "en.lproj/Localizable.strings")
        let french = root.path + "/fr.lproj/Localizable.strings"
        try FileManager.default.createDirectory(atPath: root.path + "/fr.lproj", withIntermediateDirectories: true)
        try #require(link(english, french) == 0)
        let daemon = try DaemonProcess(resources: [root.path])
        #expect(value(daemon, "fr") == "one")

        // Through one watched name: the other name is refreshed with it, at once.
        try writeInPlace("\"k\" = \"two\";\n", to: english)
        #expect(eventually(10) { value(daemon, "en") == "two" && value(daemon, "fr") == "two" }, "\(daemon.log)")
        // Through a name no watch is on (a link outside every root): the timer finds it.
        let third = outside.path + "/Localizable.strings"
        try #require(link(english, third) == 0)
        try writeInPlace("\"k\" = \"three\";\n", to: third)
        #expect(eventually(10) { value(daemon, "en") == "three" && value(daemon, "fr") == "three" }, "\(daemon.log)")
        let status = try daemon.request(["op": "status"])
        let watcher = try #require(status["watcher"] as? [String: Any])
        #expect(watcher["polled_files"] as? Int == 2, "\(watcher)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Issue from an outside tester (kernel 6.18): `link()` raises `IN_ATTRIB` only on a
    /// watch on the file itself, and `IN_CREATE` in the new name's directory, outside the
    /// root: a file of one link linked from outside was never polled, its edits never served.
    @Test func aFileLinkedFromOutsideTheRootIsServedWhenEditedThere() throws {
        let root = try TemporaryDirectory(prefix: "l10nd-link-outside")
        let outside = try TemporaryDirectory(prefix: "l10nd-link-outside-other")
        let table = try root.write("\"k\" = \"w1\";\n", to: "zz.lproj/T.strings")
        let daemon = try DaemonProcess(resources: [root.path])
        func served() -> String? {
            (try? daemon.request(["op": "lookup", "key": "k", "table": "T", "lang": "zz"]))?["value"] as? String
        }
        func polledFiles() -> Int? {
            let watcher = (try? daemon.request(["op": "status"]))?["watcher"] as? [String: Any]
            return watcher?["polled_files"] as? Int
        }
        #expect(served() == "w1")

        let elsewhere = outside.path + "/T.strings"
        try #require(link(table, elsewhere) == 0)
        try writeInPlace("\"k\" = \"w4\";\n", to: elsewhere)
        // The 5 s sweep finds the link, then the 1 s poll; 15 s leaves room on a loaded machine.
        #expect(eventually(15) { served() == "w4" }, "\(daemon.log)")

        // 2 → 1 → 2, the second link again outside. An edit through the root's name, once
        // served, says the unlink's batch is read: the next outside edit only a sweep finds.
        try #require(unlink(elsewhere) == 0)
        #expect(eventually(15) { polledFiles() == 0 }, "\(daemon.log)")
        try writeInPlace("\"k\" = \"w6\";\n", to: table)
        #expect(eventually(15) { served() == "w6" }, "\(daemon.log)")
        try #require(link(table, elsewhere) == 0)
        try writeInPlace("\"k\" = \"w5\";\n", to: elsewhere)
        #expect(eventually(15) { served() == "w5" }, "\(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test func aFileMountedOnItsOwnIsReadWhenItsSourceIsEdited() throws {
        if let reason = try MountNamespace.unavailableReason() {
            print("skipped: \(reason)")
            return
        }
        let root = try TemporaryDirectory(prefix: "l10nd-file-mount")
        let target = try root.write("\"k\" = \"covered\";\n", to: "xx.lproj/Localizable.strings")
        let sources = try TemporaryDirectory(prefix: "l10nd-file-mount-source")
        let source = try sources.write("\"k\" = \"mounted\";\n", to: "Localizable.strings")
        let daemon = try DaemonProcess(resources: [root.path], launcher: MountNamespace.launcher)
        #expect(value(daemon, "xx") == "covered")

        let mount = try MountNamespace.run(in: daemon.process.processIdentifier, "mount --bind '\(source)' '\(target)'")
        try #require(mount.status == 0, "\(mount)")
        #expect(eventually(10) { value(daemon, "xx") == "mounted" }, "\(daemon.log)")
        // Edited at its source (another directory, another mount): no watch of ours hears it.
        try writeInPlace("\"k\" = \"edited at the source\";\n", to: source)
        #expect(eventually(10) { value(daemon, "xx") == "edited at the source" }, "\(daemon.log)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
