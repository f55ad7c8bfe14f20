import Foundation
import Glibc
import TestSupport
import Testing

/// Directories the real `l10nd` cannot watch: a `.lproj` made unreadable under a daemon run
/// as `nobody`, the inotify watch limit reached, an `.lproj` past the depth rule, and 500
/// directories deleted at once. Each time: listed in `status` with the reason, no rescan
/// loop (rescans and CPU counted over seconds), tables kept, edits still served.
///
/// Serialized: CPU and rescan counts are measured over a few idle seconds.
@Suite(.serialized) struct UnwatchedDirectoryDaemonTests {
    typealias Fixture = FaultTests.Fixture

    /// What `status` says of the watcher and the daemon, and the daemon's CPU time, at one moment.
    struct Reading {
        var rescans: Int
        var watcherRescans: Int
        var cpuSeconds: Double
        var residentKilobytes: Int

        init(_ f: Fixture) throws {
            let status = try f.status()
            rescans = (status["counters"] as? [String: Any])?["rescans"] as? Int ?? -1
            watcherRescans = (status["watcher"] as? [String: Any])?["rescans"] as? Int ?? -1
            cpuSeconds = f.daemon.cpuSeconds ?? 0
            residentKilobytes = f.daemon.residentKilobytes ?? 0
        }
    }

    static func unwatched(_ f: Fixture) throws -> [[String: Any]] {
        try f.watcher()["unwatched"] as? [[String: Any]] ?? []
    }

    /// Over three idle seconds with a directory unwatched: no rescan, little CPU, flat memory.
    static func expectIdle(_ f: Fixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try Reading(f)
        Thread.sleep(forTimeInterval: 3)  // the idle window measured, the point of the check
        let after = try Reading(f)
        #expect(after.rescans == before.rescans, "rescans", sourceLocation: sourceLocation)
        #expect(after.watcherRescans == before.watcherRescans, "watcher rescans", sourceLocation: sourceLocation)
        // A loop used more than a core; a few retries and polls cost milliseconds.
        #expect(after.cpuSeconds - before.cpuSeconds < 0.5, "CPU \(after.cpuSeconds - before.cpuSeconds) s in 3 s")
        #expect(
            after.residentKilobytes - before.residentKilobytes < 4096,
            "RSS grew \(after.residentKilobytes - before.residentKilobytes) KiB in 3 s", sourceLocation: sourceLocation)
    }

    @Test func anLprojMadeUnreadableIsListedKeptAndNotRescannedInALoop() throws {
        let f = try Fixture(
            ["en.lproj/Localizable.strings": "\"k\" = \"en\";\n", "ja.lproj/Localizable.strings": "\"k\" = \"ja\";\n"],
            user: FaultTests.unprivilegedUser)
        let ja = f.path("ja.lproj")
        #expect(try f.value("k", "ja") == "ja")

        chmod(ja, 0)
        #expect(try f.eventually { try Self.unwatched(f).map { $0["path"] as? String } == [ja] })
        let entry = try #require(try Self.unwatched(f).first)
        #expect(entry["reason"] as? String == "permission_denied")
        #expect((entry["message"] as? String)?.lowercased().contains("permission denied") == true)
        try Self.expectIdle(f)
        #expect(try f.value("k", "ja") == "ja", "the tables of an unlistable directory are kept")
        // Its file cannot be looked at either: listed, with its table kept.
        #expect(try f.errors() == ["\(ja)/Localizable.strings: cannot be read: Permission denied"])
        let problems = f.daemon.log.split(separator: "\n").filter {
            $0.contains("cannot list \(ja):") || $0.contains("cannot watch \(ja):")
        }
        #expect(problems.count == 1, "reported once: \(problems)")

        chmod(ja, 0o755)
        #expect(try f.eventually { try Self.unwatched(f).isEmpty && f.errors().isEmpty })
        try f.resources.write("\"k\" = \"ja again\";\n", to: "ja.lproj/Localizable.strings")
        #expect(try f.eventually { try f.value("k", "ja") == "ja again" })
        #expect(f.daemon.log.contains("\(ja) is watched again"), "\(f.daemon.log)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    /// The watch limit, reached: through `L10ND_TEST_WATCH_LIMIT_FILE`, which stands in for
    /// `/proc/sys/fs/inotify/max_user_watches`. Lowering the real limit is not safe here:
    /// it is one value for every user of the machine, and other tests (and people) on it
    /// watch directories too.
    @Test func theWatchLimitReachedMeansPollingNotRescanning() throws {
        let limits = try TemporaryDirectory(prefix: "l10nd-watch-limit")
        let limitFile = try limits.write("2\n", to: "max_user_watches")
        chmod(limits.path, 0o755)
        chmod(limitFile, 0o644)
        let files = Dictionary(
            uniqueKeysWithValues: ["de", "en", "fr", "ja"].map {
                ("\($0).lproj/Localizable.strings", "\"k\" = \"\($0)\";\n")
            })
        let f = try Fixture(
            files, user: FaultTests.unprivilegedUser, environment: ["L10ND_TEST_WATCH_LIMIT_FILE": limitFile])
        // The root and de.lproj take the two watches; en, fr and ja are polled.
        let expected = ["en", "fr", "ja"].map { f.path("\($0).lproj") }
        #expect(try Self.unwatched(f).map { $0["path"] as? String ?? "" } == expected)
        for entry in try Self.unwatched(f) {
            #expect(entry["reason"] as? String == "watch_limit_reached")
            #expect(entry["polled"] as? Bool == true)
            #expect((entry["message"] as? String)?.contains("fs.inotify.max_user_watches") == true)
        }
        #expect(f.daemon.log.contains("fs.inotify.max_user_watches"))
        try Self.expectIdle(f)

        // Edits in a polled directory still arrive (every 2 s).
        try f.resources.write("\"k\" = \"ja, polled\";\n", to: "ja.lproj/Localizable.strings")
        #expect(try f.eventually(15) { try f.value("k", "ja") == "ja, polled" })
        #expect(try f.watcher()["polled_changes"] as? Int ?? 0 >= 1)

        // A reload does not wait on the failing watches.
        let start = Date()
        let reply = try f.daemon.request(["op": "reload"])
        let reloadSeconds = Date().timeIntervalSince(start)
        #expect(reply["ok"] as? Bool == true)
        #expect(reloadSeconds < 5, "reload took \(reloadSeconds) s")

        // The limit lifted: the retries (1, 2, 4, … s, at most 60 s apart) watch them all.
        try limits.write("1000\n", to: "max_user_watches")
        #expect(try f.eventually(90) { try f.watcher()["unwatched_count"] as? Int == 0 })
        #expect(try f.watcher()["watches"] as? Int == 5)
        try f.resources.write("\"k\" = \"fr, watched\";\n", to: "fr.lproj/Localizable.strings")
        #expect(try f.eventually { try f.value("k", "fr") == "fr, watched" })
        #expect(try f.watcher()["rescans"] as? Int == 1, "the reload's, and no other")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    /// One depth rule for reading and watching: the `.lproj` 32 levels down is served and
    /// hot-reloaded; the one 33 levels down is neither, and `status` says so.
    @Test func anLprojPastTheDepthRuleIsListedAndNotServed() throws {
        let chain = (1..<32).map { "d\($0)" }.joined(separator: "/")
        let f = try Fixture([
            "en.lproj/Localizable.strings": "\"k\" = \"en\";\n",
            chain + "/fr.lproj/Localizable.strings": "\"k\" = \"fr\";\n",
            chain + "/d32/de.lproj/Localizable.strings": "\"k\" = \"de\";\n",
        ])
        #expect(try f.value("k", "fr") == "fr")
        #expect(try f.value("k", "de") == "en")
        let tooDeep = try Self.unwatched(f)
        #expect(tooDeep.map { $0["path"] as? String } == [f.path(chain + "/d32/de.lproj")])
        #expect(tooDeep.first?["reason"] as? String == "too_deep")
        try f.resources.write("\"k\" = \"fr, edited\";\n", to: chain + "/fr.lproj/Localizable.strings")
        #expect(try f.eventually { try f.value("k", "fr") == "fr, edited" })
        let text = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), ["status", "--socket", f.daemon.socketPath])
        #expect(text.stdout.contains("unwatched directories (1):"), "\(text.stdout)")
        #expect(text.stdout.contains("\(f.path(chain + "/d32/de.lproj")): too_deep"), "\(text.stdout)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }

    @Test func fiveHundredDirectoriesDeletedAtOnceTakeEffectPromptly() throws {
        let letters = "abcdefghijklmnopqrstuvwxyz"
        let tags = letters.flatMap { first in letters.map { "\(first)\($0)" } }.filter { $0 != "en" }.prefix(500)
        var files = ["en.lproj/Localizable.strings": "\"k\" = \"en\";\n"]
        for tag in tags { files["\(tag).lproj/Localizable.strings"] = "\"k\" = \"\(tag)\";\n" }
        let f = try Fixture(files)
        #expect(try f.status()["languages"] as? Int == 501)
        let start = Date()
        try f.shell("rm -rf " + tags.map { "\($0).lproj" }.joined(separator: " "))
        #expect(try f.eventually(30) { try f.status()["languages"] as? Int == 1 })
        print("500 directories deleted: served without them after \(Date().timeIntervalSince(start)) s")
        #expect(try f.watcher()["watches"] as? Int == 2)
        #expect(try f.value("k", "aa") == "en")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
    }
}
