import Foundation
import Glibc
import TestSupport
import Testing

/// The file system failing under the real daemon: unreadable files and directories, a root
/// deleted and re-created, an inotify queue that overflows while the daemon is stopped, link
/// loops, a file replaced by a directory, a 100 MB file, the socket's directory removed.
/// Each time the daemon survives, says what happened in `status`, and goes on serving what
/// can be served.
///
/// Serialized: the overflow and 100 MB tests need the machine's two cores to stay in time.
@Suite(.serialized) struct FaultTests {
    /// The user the permission tests run the daemon as: nobody when the tests run as root,
    /// who reads anything; otherwise the tests' own user, to whom permissions apply.
    static let unprivilegedUser: UInt32? = getuid() == 0 ? 65534 : nil

    /// A daemon over a fresh resource directory holding `files`.
    final class Fixture {
        let resources: TemporaryDirectory
        let daemon: DaemonProcess

        init(
            _ files: [String: String], extraRoots: [String] = [], user: UInt32? = nil,
            environment: [String: String] = [:], prepare: (TemporaryDirectory) throws -> Void = { _ in }
        ) throws {
            resources = try TemporaryDirectory(prefix: "l10nd-faults")
            for (path, text) in files { try resources.write(text, to: path) }
            try prepare(resources)
            daemon = try DaemonProcess(
                resources: [resources.path] + extraRoots, environment: environment, user: user)
        }

        func path(_ relative: String) -> String { resources.path + "/" + relative }

        func value(_ key: String, _ language: String, table: String = "Localizable") throws -> String? {
            try daemon.request(["op": "lookup", "key": key, "lang": language, "table": table])["value"] as? String
        }

        func status() throws -> [String: Any] { try daemon.request(["op": "status"]) }

        /// The `status` errors, as "file: message".
        func errors() throws -> [String] {
            (try status()["errors"] as? [[String: Any]] ?? []).map { "\($0["file"] ?? ""): \($0["message"] ?? "")" }
        }

        func watcher() throws -> [String: Any] { try status()["watcher"] as? [String: Any] ?? [:] }

        /// Polls `condition` until it holds or `timeout` seconds pass; whether it held.
        func eventually(_ timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
            try TestSupport.eventually(timeout, condition)
        }

        func shell(_ script: String) throws {
            let result = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: resources.path)
            #expect(result.status == 0, "\(script): \(result.stderr)")
        }
    }

    @Test func unreadableFilesAreReportedAndTheirLastGoodTableKept() throws {
        let f = try Fixture(
            [
                "en.lproj/Localizable.strings": "\"k\" = \"en\";\n\"m\" = \"menu en\";\n",
                "ja.lproj/Localizable.strings": "\"k\" = \"ja\";\n", "ja.lproj/Menu.strings": "\"m\" = \"menu ja\";\n",
                "de.lproj/Localizable.strings": "\"k\" = \"de\";\n",
            ], user: Self.unprivilegedUser
        ) { resources in
            // Unreadable from the start: a file, and a directory nobody may list.
            chmod(resources.path + "/ja.lproj/Menu.strings", 0)
            chmod(resources.path + "/de.lproj", 0)
        }
        let menu = f.path("ja.lproj/Menu.strings")
        #expect(try f.errors() == ["\(menu): cannot be read: Permission denied"])
        #expect(try f.value("m", "ja", table: "Menu") == "m")
        #expect(try f.value("k", "de") == "en")
        let lastError = try f.watcher()["last_error"] as? String ?? ""
        // "cannot watch …" or "cannot list …", whichever the watcher met last.
        #expect(
            lastError.contains(f.path("de.lproj")) && lastError.lowercased().contains("permission denied"),
            "\(lastError)")

        // Readable once, then not: the last good table stays, the error is listed.
        let localizable = f.path("ja.lproj/Localizable.strings")
        chmod(localizable, 0)
        #expect(try f.eventually { try f.errors().contains("\(localizable): cannot be read: Permission denied") })
        #expect(try f.value("k", "ja") == "ja")

        // Permissions fixed: everything is served and no error is left.
        chmod(localizable, 0o644)
        chmod(menu, 0o644)
        chmod(f.path("de.lproj"), 0o755)
        #expect(
            try f.eventually {
                try f.errors().isEmpty && f.value("m", "ja", table: "Menu") == "menu ja" && f.value("k", "de") == "de"
            })
        #expect(try f.value("k", "ja") == "ja")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    /// #7: the root made unreadable (`chmod 000`) while a file is saved, then readable again:
    /// the last good tables are served throughout (never the fallback, never fewer
    /// languages), `status` lists why meanwhile, and the saved file is served once readable.
    @Test func aRootMadeUnreadableDuringASaveLosesNothing() throws {
        let f = try Fixture(
            [
                "en.lproj/Localizable.strings": ConsistencyPoller.table("en"),
                "ja.lproj/Localizable.strings": ConsistencyPoller.table("ja1"),
            ], user: Self.unprivilegedUser)
        let poller = try ConsistencyPoller(
            daemon: f.daemon, languages: ["ja"], keys: ConsistencyPoller.keys(), minimumLanguages: 2
        ) { _, origin in ["ja1", "ja2"].contains(origin) ? nil : "served \(origin)" }
        #expect(poller.waitForRounds())
        chmod(f.resources.path, 0)
        // Saved the safe way (a new file renamed over the old), by a user the mode does not stop.
        try f.resources.write(ConsistencyPoller.table("ja2"), to: "ja.lproj/.Localizable.strings.new")
        #expect(rename(f.path("ja.lproj/.Localizable.strings.new"), f.path("ja.lproj/Localizable.strings")) == 0)
        // In `errors` for a file read, or among the watcher's unwatched directories.
        #expect(
            try f.eventually { "\(try f.status())".contains("Permission denied") }, "\((try? f.status()) ?? [:])")
        #expect(poller.waitForRounds(10))
        chmod(f.resources.path, 0o755)
        #expect(
            try f.eventually { try f.value("k00", "ja") == "ja2:k00" && f.errors().isEmpty },
            "\((try? f.status()) ?? [:])")
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    /// An operator's `chmod 000` on a whole root (the iina corpus) wrote one warning per file,
    /// ~1,960 lines: files that fail alike make one line for the burst, naming the directory,
    /// how many and the first; `status` still lists each.
    @Test func aRootMadeUnreadableIsOneLogLineNotOnePerFile() throws {
        var files: [String: String] = [:]
        for language in ["de", "fr", "ja"] {
            for table in 0..<5 { files["\(language).lproj/T\(table).strings"] = "\"k\" = \"\(language)\";\n" }
        }
        let f = try Fixture(files, user: Self.unprivilegedUser)
        func unreadableLines() -> [Substring] {
            f.daemon.log.split(separator: "\n").filter { $0.contains("cannot be read: Permission denied") }
        }
        #expect(chmod(f.resources.path, 0) == 0)
        defer { chmod(f.resources.path, 0o755) }
        #expect(try f.eventually { try f.errors().count == 15 }, "\((try? f.status()) ?? [:])")
        #expect(eventually { !unreadableLines().isEmpty })
        usleep(300_000)
        let lines = unreadableLines()
        #expect(lines.count == 1, "\(lines)")
        #expect(
            lines.first?.hasSuffix(
                "\(f.resources.path): cannot be read: Permission denied, 15 files under it (first "
                    + "\(f.path("de.lproj/T0.strings")); the last good versions are still served; l10nctl status lists each)"
            )
                == true, "\(lines)")
        #expect(try f.value("k", "fr", table: "T3") == "fr")
    }

    /// An operator's root under `/home/u` (mode 0700) with the daemon running as another user
    /// was reported as not existing, and the fix tried was to create it. It is reported as
    /// permission denied, with what the service user needs, apart from the missing roots.
    /// Real only with a user the directory shuts out: as root, the daemon drops to `nobody`.
    @Test(.enabled(if: FaultTests.unprivilegedUser != nil, "needs root, to run the daemon as another user"))
    func aRootBehindADirectoryTheDaemonMayNotEnterIsPermissionDenied() throws {
        let outside = try TemporaryDirectory(prefix: "l10nd-home")
        let home = try outside.makeDirectory("u")
        let root = try outside.write("\"k\" = \"v\";\n", to: "u/app/de.lproj/Localizable.strings")
            .replacingOccurrences(of: "/de.lproj/Localizable.strings", with: "")
        #expect(chmod(outside.path, 0o755) == 0 && chmod(home, 0o700) == 0)
        let f = try Fixture(
            ["de.lproj/Localizable.strings": "\"k\" = \"v\";\n"], extraRoots: [root], user: Self.unprivilegedUser)
        let status = try f.status()
        let problems = status["problems"] as? [String] ?? []
        #expect(
            problems == [
                "resource root \(root) cannot be reached: permission denied (the user it runs as needs search (x) "
                    + "permission on every directory above it and read permission on it; with systemd's "
                    + "DynamicUser=yes a home directory of mode 0700 is out of reach)"
            ], "\(problems)")
        let watcher = try #require(status["watcher"] as? [String: Any])
        #expect(watcher["permission_denied_roots"] as? [String] == [root], "\(watcher)")
        #expect(watcher["missing_roots"] as? [String] == [], "\(watcher)")
        #expect(
            try f.errors().contains {
                $0.hasPrefix("\(root): the resource directory cannot be reached: permission denied")
            })
        #expect(!f.daemon.log.contains("\(root) does not exist"), "\(f.daemon.log)")
        #expect(
            f.daemon.log.contains("resource directory \(root) cannot be reached: permission denied"), "\(f.daemon.log)")
        #expect(try f.value("k", "de") == "v")
    }

    @Test func aDeletedRootIsServedAgainWhenItComesBack() throws {
        let other = try TemporaryDirectory(prefix: "l10nd-faults-other")
        try other.write(
            "\"k\" = \"other\";\n\"only\" = \"only in the other root\";\n", to: "en.lproj/Localizable.strings")
        let f = try Fixture(["ja.lproj/Localizable.strings": "\"k\" = \"first\";\n"], extraRoots: [other.path])
        let root = f.resources.path
        #expect(try f.value("k", "ja") == "first")

        try FileManager.default.removeItem(atPath: root)
        #expect(try f.eventually { try f.watcher()["missing_roots"] as? [String] == [root] })
        #expect((try f.watcher()["last_error"] as? String)?.contains(root) == true)
        // Its tables are kept (nothing good is replaced by nothing), and `errors` says why.
        #expect(
            try f.eventually {
                try f.errors().contains {
                    $0.hasPrefix("\(root): the resource directory does not exist")
                        && $0.hasSuffix("the tables last read from it are still served")
                }
            })
        #expect(try f.value("k", "ja") == "first")
        #expect(try f.value("only", "ja") == "only in the other root")

        // Back, as a deployment would bring it: made elsewhere, moved in whole.
        let staging = try TemporaryDirectory(prefix: "l10nd-faults-staging")
        try staging.write("\"k\" = \"second\";\n", to: "root/ja.lproj/Localizable.strings")
        #expect(rename(staging.path + "/root", root) == 0)
        #expect(try f.eventually { try f.value("k", "ja") == "second" && f.errors().isEmpty })
        // The file may be served first (its vanished-file grace ended with it back) and the
        // root's return seen at the next root check, within a second.
        #expect(try f.eventually { try f.watcher()["missing_roots"] as? [String] == [] })
        // The problem is over: `last_error` no longer names it as current (it did for good),
        // `resolved_error` keeps it with the time it ended.
        let recovered = try f.watcher()
        #expect(recovered["last_error"] is NSNull, "\(recovered)")
        let resolved = try #require(recovered["resolved_error"] as? String)
        #expect(resolved.contains(root) && resolved.contains("(resolved 20"), "\(resolved)")

        // Deleted and re-made in one breath, before the daemon hears of the deletion.
        try f.shell(
            "rm -rf '\(root)' && mkdir -p '\(root)/ja.lproj' && printf '\"k\" = \"third\";\\n' > '\(root)/ja.lproj/Localizable.strings'"
        )
        #expect(try f.eventually { try f.value("k", "ja") == "third" })
        #expect(try f.eventually { try f.watcher()["missing_roots"] as? [String] == [] })
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    @Test func anInotifyQueueOverflowWhileStoppedEndsInAFullRescan() throws {
        let f = try Fixture(["ja.lproj/Localizable.strings": "\"k\" = \"before\";\n"])
        let limit =
            (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
        #expect(try f.value("k", "ja") == "before")
        let rescansBefore = try f.watcher()["rescans"] as? Int ?? -1

        f.daemon.send(signal: SIGSTOP)
        // Each file makes at least two events (create, close-write) and two more on removal:
        // twice the queue's size, whatever the daemon's own queue takes first.
        let directory = f.path("ja.lproj")
        for index in 0..<limit {
            let path = "\(directory)/noise\(index).txt"
            let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            if descriptor >= 0 { close(descriptor) }
            unlink(path)
        }
        try f.resources.write("\"k\" = \"after\";\n\"new\" = \"added while stopped\";\n", to: ".staged")
        #expect(rename(f.path(".staged"), f.path("ja.lproj/Localizable.strings")) == 0)
        try f.resources.write("\"k\" = \"ko\";\n", to: "ko.lproj/Localizable.strings")
        f.daemon.send(signal: SIGCONT)

        #expect(
            try f.eventually(20) { try f.value("new", "ja") == "added while stopped" && f.value("k", "ko") == "ko" })
        #expect(try f.value("k", "ja") == "after")
        let watcher = try f.watcher()
        #expect(watcher["overflows"] as? Int ?? 0 >= 1, "\(watcher)")
        #expect(watcher["rescans"] as? Int ?? 0 > rescansBefore, "\(watcher)")
        #expect(f.daemon.log.contains("full rescan:"), "\(f.daemon.log)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    @Test func symbolicLinkLoopsAreNotFollowed() throws {
        let f = try Fixture([
            "en.lproj/Localizable.strings": "\"k\" = \"en\";\n", "ja.lproj/Localizable.strings": "\"k\" = \"ja\";\n",
        ]) { resources in
            let links = [
                ("loop", "."), ("a", "b"), ("b", "a"), ("ja.lproj/Menu.strings", "Menu.strings"), ("deep/up", ".."),
            ]
            try resources.makeDirectory("deep")
            for (link, target) in links {
                try FileManager.default.createSymbolicLink(
                    atPath: resources.path + "/" + link, withDestinationPath: target)
            }
        }
        let menu = f.path("ja.lproj/Menu.strings")
        #expect(try f.errors() == ["\(menu): cannot be read: Too many levels of symbolic links"])
        let watchesAtStart = try f.watcher()["watches"] as? Int ?? -1
        #expect(watchesAtStart == 4, "root, deep, en.lproj and ja.lproj: \(watchesAtStart)")
        #expect((try f.watcher()["last_error"] as? String)?.contains("a loop") == true)

        // A language added under the loop is found once, not again through `loop/`.
        let filesBefore = try f.status()["files"] as? Int ?? -1
        try f.shell(
            "mkdir ko.lproj && ln -s .. deep/back && printf '\"k\" = \"ko\";\\n' > ko.lproj/Localizable.strings")
        #expect(try f.eventually { try f.value("k", "ko") == "ko" })
        usleep(200_000)  // a window in which it may not be found again: only time marks its end
        let status = try f.status()
        #expect(status["files"] as? Int == filesBefore + 1, "\(status)")
        #expect((status["errors"] as? [Any])?.count == 1, "\(status)")
        #expect(
            (try f.watcher()["last_error"] as? String)?.hasSuffix(
                "deep/back links back to \(f.resources.path), a loop: not followed") == true)
        #expect(try f.watcher()["watches"] as? Int == watchesAtStart + 1)
        #expect(try f.value("k", "ja") == "ja")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    @Test func aFileReplacedByADirectoryIsReported() throws {
        let f = try Fixture([
            "en.lproj/Localizable.strings": "\"k\" = \"en\";\n", "ja.lproj/Localizable.strings": "\"k\" = \"ja\";\n",
        ])
        let file = f.path("ja.lproj/Localizable.strings")
        try f.shell("rm ja.lproj/Localizable.strings && mkdir ja.lproj/Localizable.strings")
        #expect(try f.eventually { try f.errors() == ["\(file): cannot be read: it is a directory, not a file"] })
        // The last good table when the daemon saw both steps at once; the development
        // language when it saw the file go first. Never anything else.
        #expect(["ja", "en"].contains(try f.value("k", "ja")))

        try f.shell(
            "rmdir ja.lproj/Localizable.strings && printf '\"k\" = \"ja again\";\\n' > ja.lproj/Localizable.strings")
        #expect(try f.eventually { try f.value("k", "ja") == "ja again" && f.errors().isEmpty })
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    @Test func aHundredMegabyteFileIsParsedWhileLookupsGoOn() throws {
        let f = try Fixture(["en.lproj/Localizable.strings": "\"k\" = \"en\";\n"])
        let steady = try SteadyLookupClient(daemon: f.daemon, key: "k", language: "en", value: "en")
        // About 100,000 entries of 1 KiB: written under a hidden name, then renamed in.
        let padding = String(repeating: "x", count: 1000)
        var text = Data()
        text.reserveCapacity(105 << 20)
        var entries = 0
        while text.count < 100 << 20 {
            text.append(contentsOf: Array("\"key\(entries)\" = \"\(entries) \(padding)\";\n".utf8))
            entries += 1
        }
        try f.resources.write(text, to: "ja.lproj/.Localizable.strings.tmp")
        let started = Date()
        #expect(rename(f.path("ja.lproj/.Localizable.strings.tmp"), f.path("ja.lproj/Localizable.strings")) == 0)
        #expect(steady.waitForAnswers(20, timeout: 10), "lookups stalled while the file was read")
        #expect(
            try f.eventually(120) { try f.value("key\(entries - 1)", "ja")?.hasPrefix("\(entries - 1) xxx") == true })
        let parsed = Date().timeIntervalSince(started)
        let report = steady.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.slowest < 2, "a lookup waited \(report.slowest) s while the file was parsed")
        let status = try f.status()
        #expect(status["keys"] as? Int == entries + 1 || status["keys"] as? Int == entries, "\(status)")
        print(
            "100 MB file: \(entries) entries served after \(parsed) s; \(report.answers) lookups meanwhile, slowest \(report.slowest) s"
        )
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    /// With `max_file_bytes` set, a larger file is not parsed: `status` names it and the
    /// limit, and its last good table is served.
    @Test func aFileOverMaxFileBytesIsRefusedAndKeepsItsTable() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-faults")
        try resources.write("\"k\" = \"ja\";\n", to: "ja.lproj/Localizable.strings")
        let config = try resources.write("max_file_bytes = 65536\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--config", config])
        let big =
            "\"k\" = \"big\";\n"
            + String(repeating: "/* 64 bytes of comment ................................... */\n", count: 2048)
        let path = try resources.write(big, to: "ja.lproj/Localizable.strings")
        let deadline = Date().addingTimeInterval(10)
        var errors: [String] = []
        while errors.isEmpty, Date() < deadline {
            usleep(20_000)
            errors = (try daemon.request(["op": "status"])["errors"] as? [[String: Any]] ?? []).map {
                "\($0["file"] ?? ""): \($0["message"] ?? "")"
            }
        }
        #expect(
            errors == [
                "\(path): cannot be read: it is \(big.utf8.count) bytes, larger than the 65536 bytes limit for one resource file"
            ])
        #expect(try daemon.request(["op": "lookup", "key": "k", "lang": "ja"])["value"] as? String == "ja")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// The socket's directory removed (a tmp cleaner): connected clients keep working, and
    /// new clients find a new socket at the same path within the check interval (2 s).
    /// Until then a new `connect` fails with `ENOENT`.
    @Test func theSocketDirectoryRemovedUnderTheDaemon() throws {
        let f = try Fixture(["en.lproj/Localizable.strings": "\"k\" = \"en\";\n"])
        let connected = try f.daemon.connect()
        let directory = (f.daemon.socketPath as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: directory)
        #expect(try connected.request(["op": "lookup", "key": "k", "lang": "en"])["value"] as? String == "en")
        #expect(f.eventually(10) { (try? f.daemon.connect(timeout: 2)) != nil }, "no new socket appeared")
        #expect(try f.value("k", "en") == "en")
        #expect(try connected.request(["op": "lookup", "key": "k", "lang": "en"])["value"] as? String == "en")
        let socket = try #require(try f.status()["socket"] as? [String: Any])
        #expect(socket["recreated"] as? Int == 1 && socket["in_place"] as? Bool == true, "\(socket)")
        #expect(f.daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: f.daemon.socketPath), "the new socket file was left behind")
    }
}
