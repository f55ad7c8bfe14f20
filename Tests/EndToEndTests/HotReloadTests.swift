import Foundation
import TestSupport
import Testing

/// Files edited the way real tools write them: every time, the daemon serves the new value
/// and tells its subscribers, with no restart.
@Suite struct HotReloadTests {
    /// A daemon over a fresh resource directory, with a subscriber already listening.
    final class Fixture {
        let resources: TemporaryDirectory
        let daemon: DaemonProcess
        let subscriber: JSONLineClient

        init(files: [String: String] = ["ja.lproj/Localizable.strings": "\"k\" = \"original\";\n"]) throws {
            resources = try TemporaryDirectory(prefix: "l10nd-resources")
            for (path, text) in files { try resources.write(text, to: path) }
            daemon = try DaemonProcess(resources: [resources.path])
            subscriber = try daemon.connect(timeout: 10)
            let ok = try subscriber.request(["op": "subscribe"])
            #expect(ok["ok"] as? Bool == true)
        }

        var ja: String { resources.path + "/ja.lproj" }

        /// Waits for a `changed` event naming `language`/`table`; returns its generation.
        @discardableResult
        func awaitChange(_ language: String, table: String = "Localizable") throws -> Int {
            while true {
                let event = try subscriber.readObject()
                guard event["event"] as? String == "changed" else { continue }
                let changes = event["changes"] as? [[String: Any]] ?? []
                if changes.contains(where: { $0["lang"] as? String == language && $0["table"] as? String == table }) {
                    return event["generation"] as? Int ?? -1
                }
            }
        }

        func value(_ key: String = "k", _ language: String = "ja", table: String = "Localizable") throws -> String? {
            try daemon.request(["op": "lookup", "key": key, "lang": language, "table": table])["value"] as? String
        }

        /// Polls `status` until it lists a file error (a broken save changes no table, so no
        /// event comes); returns the errors.
        func awaitErrors() throws -> [[String: Any]] {
            var errors: [[String: Any]] = []
            _ = try eventually {
                errors = try daemon.request(["op": "status"])["errors"] as? [[String: Any]] ?? []
                return !errors.isEmpty
            }
            return errors
        }

        func shell(_ script: String) throws {
            let result = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: resources.path)
            #expect(result.status == 0, "\(script): \(result.stderr)")
        }
    }

    @Test func vimSave() throws {
        let f = try Fixture()
        // vim: probe file 4913, rename the original to a backup, write a new file, delete the backup.
        try f.shell(
            """
            cd ja.lproj && : > 4913 && rm 4913 && mv Localizable.strings Localizable.strings~ \
            && printf '"k" = "vim";\\n' > Localizable.strings && rm Localizable.strings~
            """)
        try f.awaitChange("ja")
        #expect(try f.value() == "vim")
    }

    @Test func jetBrainsSave() throws {
        let f = try Fixture()
        try f.shell(
            """
            cd ja.lproj && printf '"k" = "idea";\\n' > Localizable.strings___jb_tmp___ \
            && mv Localizable.strings Localizable.strings___jb_old___ \
            && mv Localizable.strings___jb_tmp___ Localizable.strings && rm Localizable.strings___jb_old___
            """)
        try f.awaitChange("ja")
        #expect(try f.value() == "idea")
    }

    @Test func vsCodeSaveTruncatesThenWrites() throws {
        let f = try Fixture()
        let handle = try #require(FileHandle(forWritingAtPath: f.ja + "/Localizable.strings"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("\"k\" = \"code\";\n".utf8))
        try handle.close()
        try f.awaitChange("ja")
        #expect(try f.value() == "code")
    }

    @Test(arguments: ["cp", "mv", "rsync"])
    func copyMoveAndRsync(tool: String) throws {
        let f = try Fixture()
        let staging = try TemporaryDirectory(prefix: "l10nd-staging")
        try staging.write("\"k\" = \"\(tool)\";\n", to: "ja.lproj/Localizable.strings")
        switch tool {
        case "cp": try f.shell("cp \(staging.path)/ja.lproj/Localizable.strings ja.lproj/Localizable.strings")
        case "mv": try f.shell("mv \(staging.path)/ja.lproj/Localizable.strings ja.lproj/Localizable.strings")
        default:
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/rsync"), "rsync is not installed")
            try f.shell("rsync -r --delay-updates \(staging.path)/ ./")
        }
        try f.awaitChange("ja")
        #expect(try f.value() == tool)
    }

    /// A `changed` event goes out before the reload's log line and heap trim (a mapped
    /// client sees the edit only once told), yet never before what it announces: a lookup
    /// sent the moment it arrives reads that generation, and `status` counts the reload.
    @Test func eachChangedEventFollowsItsSwapAndPrecedesNothingItAnnounces() throws {
        let f = try Fixture()
        let asker = try f.daemon.connect()
        for round in 1...5 {
            let staged = f.resources.path + "/staged.strings"
            try "\"k\" = \"round \(round)\";\n".write(toFile: staged, atomically: false, encoding: .utf8)
            #expect(rename(staged, f.ja + "/Localizable.strings") == 0)
            let generation = try f.awaitChange("ja")
            let reply = try asker.request(["op": "lookup", "key": "k", "lang": "ja"])
            #expect(reply["value"] as? String == "round \(round)", "\(reply)")
            #expect(
                reply["generation"] as? Int ?? 0 >= generation, "\(reply) for the event of generation \(generation)")
            let counters = try asker.request(["op": "status"])["counters"] as? [String: Any] ?? [:]
            #expect(counters["reloads"] as? Int ?? 0 >= round, "\(counters)")
            // Logged after the event, once it is on its way.
            #expect(eventually { f.daemon.log.contains("generation \(generation): ja/Localizable") }, "\(f.daemon.log)")
        }
    }

    @Test func kubernetesConfigMapSwap() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-configmap")
        try resources.write("\"k\" = \"first\";\n", to: "..2026_01_01_00_00_00.1/ja.lproj/Localizable.strings")
        try FileManager.default.createSymbolicLink(
            atPath: resources.path + "/..data", withDestinationPath: "..2026_01_01_00_00_00.1")
        try FileManager.default.createSymbolicLink(
            atPath: resources.path + "/ja.lproj", withDestinationPath: "..data/ja.lproj")
        let daemon = try DaemonProcess(resources: [resources.path])
        let subscriber = try daemon.connect()
        _ = try subscriber.request(["op": "subscribe"])
        #expect(try daemon.request(["op": "lookup", "key": "k", "lang": "ja"])["value"] as? String == "first")
        // The kubelet's atomic writer: new timestamped dir, a temp link, renamed over ..data.
        try resources.write("\"k\" = \"second\";\n", to: "..2026_01_02_00_00_00.2/ja.lproj/Localizable.strings")
        try FileManager.default.createSymbolicLink(
            atPath: resources.path + "/..data_tmp", withDestinationPath: "..2026_01_02_00_00_00.2")
        #expect(rename(resources.path + "/..data_tmp", resources.path + "/..data") == 0)
        try FileManager.default.removeItem(atPath: resources.path + "/..2026_01_01_00_00_00.1")
        var sawJapanese = false
        while !sawJapanese {
            let event = try subscriber.readObject()
            sawJapanese = (event["changes"] as? [[String: Any]])?.contains { $0["lang"] as? String == "ja" } ?? false
        }
        #expect(try daemon.request(["op": "lookup", "key": "k", "lang": "ja"])["value"] as? String == "second")
    }

    @Test func aSyntaxErrorKeepsTheOldValuesUntilFixed() throws {
        let f = try Fixture()
        let path = f.ja + "/Localizable.strings"
        try "\"k\" = \"half-typed\"\n\"other\" = ".write(toFile: path, atomically: false, encoding: .utf8)
        let error = try #require(try f.awaitErrors().first)
        #expect(error["file"] as? String == path)
        // Right after the value whose ';' is missing: 1:19, naming where that value began.
        #expect(error["line"] as? Int == 1)
        #expect(error["column"] as? Int == 19)
        #expect(error["message"] as? String == "missing ';' after the value that starts at 1:7")
        #expect(try f.value() == "original")
        try "\"k\" = \"fixed\";\n".write(toFile: path, atomically: true, encoding: .utf8)
        try f.awaitChange("ja")
        #expect(try f.value() == "fixed")
        #expect((try f.daemon.request(["op": "status"])["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func newLanguagesAndDeletedOnes() throws {
        let f = try Fixture(files: [
            "ja.lproj/Localizable.strings": "\"k\" = \"ja\";\n", "en.lproj/Localizable.strings": "\"k\" = \"en\";\n",
        ])
        try f.resources.write("\"k\" = \"ko\";\n", to: "ko.lproj/Localizable.strings")
        try f.awaitChange("ko")
        #expect(try f.value("k", "ko") == "ko")
        try FileManager.default.removeItem(atPath: f.ja)
        try f.awaitChange("ja")
        #expect(try f.value("k", "ja") == "en")
    }

    @Test func fiveHundredLanguagesInATightLoop() throws {
        let f = try Fixture()
        var tags: [String] = []
        for first in "abcdefghijklmnopqrstuvwxyz" {
            for second in "abcdefghijklmnopqrstuvwxyz" where tags.count < 500 {
                let tag = "\(first)\(second)"
                guard tag != "ja" else { continue }
                tags.append(tag)
            }
        }
        for tag in tags {
            try f.resources.write("\"k\" = \"value \(tag)\";\n", to: "\(tag).lproj/Localizable.strings")
        }
        var served = 0
        _ = try eventually(30) {
            served = (try f.daemon.request(["op": "languages"])["languages"] as? [[String: Any]] ?? []).count
            return served >= 501
        }
        #expect(served == 501)
        let client = try f.daemon.connect()
        for tag in tags {
            let reply = try client.request(["op": "lookup", "key": "k", "lang": tag])
            #expect(reply["value"] as? String == "value \(tag)")
        }
    }

    // MARK: - Never an incomplete file (docs/DAEMON.md, "When a file is read")

    /// #1: a new file written in two chunks 150 ms apart, as `cp` or a slow editor writes:
    /// no lookup ever sees the first half (a batch mixing `ko` and the `en` fallback).
    @Test func aNewFileWrittenInTwoChunksIsNeverServedHalf() throws {
        let f = try Fixture(files: [
            "en.lproj/Localizable.strings": ConsistencyPoller.table("en"), "ko.lproj/.keep": "",
        ])
        let poller = try ConsistencyPoller(daemon: f.daemon, languages: ["ko"], keys: ConsistencyPoller.keys()) {
            _, origin in origin == "en" || origin.hasPrefix("ko") ? nil : "served \(origin)"
        }
        let file = f.resources.path + "/ko.lproj/Localizable.strings"
        for round in 1...3 {
            SlowWriter.write(ConsistencyPoller.table("ko\(round)"), to: file, flags: O_CREAT | O_EXCL)
            try f.awaitChange("ko")
            #expect(try f.value("k19", "ko") == "ko\(round):k19")
            try FileManager.default.removeItem(atPath: file)
            try f.awaitChange("ko")
        }
        #expect(poller.waitForRounds())
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        print("two-chunk writes: \(report.rounds) rounds of lookups, \(report.failures.count) rejected")
    }

    /// #2: a file rewritten in place, `O_TRUNC` then write, again and again, sometimes
    /// twice within the settle window, sometimes with the truncated file left empty for
    /// longer than the window, and now and then by a writer that stalls longer than the
    /// grace for emptied files: no lookup ever gets the empty table (the `en` fallback) or a mix.
    @Test func rewritesInPlaceNeverServeAnEmptyTable() throws {
        let f = try Fixture(files: [
            "en.lproj/Localizable.strings": ConsistencyPoller.table("en"),
            "ja.lproj/Localizable.strings": ConsistencyPoller.table("ja0"),
        ])
        let poller = try ConsistencyPoller(daemon: f.daemon, languages: ["ja"], keys: ConsistencyPoller.keys()) {
            _, origin in origin.hasPrefix("ja") ? nil : "served \(origin)"
        }
        let file = f.ja + "/Localizable.strings"
        let saves = 60
        for save in 1...saves {
            let bytes = Array(ConsistencyPoller.table("ja\(save)").utf8)
            let descriptor = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
            #expect(descriptor >= 0)
            if save % 3 == 0 { usleep(save % 20 == 0 ? 400_000 : 30_000) }  // empty beyond the window, or the grace
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            usleep(useconds_t([0, 5_000, 15_000, 40_000][save % 4]))  // saves paced as an editor's
        }
        #expect(
            try eventually { try f.value("k00") == "ja\(saves):k00" }, "the last save was not served")
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        print(
            "in-place rewrites: \(saves) saves, \(report.rounds) rounds of lookups, \(report.failures.count) rejected")
    }

    /// #3: an `.lproj` renamed away and back, within 1 ms and within 100 ms: `ja` is served
    /// throughout, never the `en` fallback.
    @Test func anLprojRenamedAwayAndBackNeverFallsBack() throws {
        try expectRenamesNeverFallBack(rounds: 20, extraTables: 0) { round in
            (away: round % 4 == 3 ? 100_000 : 500, between: 40_000)
        }
    }

    /// An `.lproj` renamed away and back a thousand times in a tight loop (0.8 ms away, 3 ms
    /// between pairs), while it holds many tables: a directory listed just before it went and
    /// a file looked for just after it came back must not drop the table (the store re-reads
    /// such a file instead). `ja` is served throughout, never the `en` fallback.
    @Test func anLprojRenamedAwayAndBackInATightLoopNeverFallsBack() throws {
        // More files make each read of the directory long enough to be caught mid-rename.
        try expectRenamesNeverFallBack(rounds: 1000, extraTables: 40) { _ in (away: 800, between: 3000) }
    }

    /// Renames `ja.lproj` away and back `rounds` times, pausing as `pauses` says (in µs),
    /// while a poller rejects every answer not from `ja`; then checks a save is still seen.
    func expectRenamesNeverFallBack(
        rounds: Int, extraTables: Int, pauses: (Int) -> (away: UInt32, between: UInt32)
    ) throws {
        var files = [
            "en.lproj/Localizable.strings": ConsistencyPoller.table("en"),
            "ja.lproj/Localizable.strings": ConsistencyPoller.table("ja"),
        ]
        for index in 0..<extraTables { files["ja.lproj/Extra\(index).strings"] = ConsistencyPoller.table("x\(index)") }
        let f = try Fixture(files: files)
        let poller = try ConsistencyPoller(daemon: f.daemon, languages: ["ja"], keys: ConsistencyPoller.keys()) {
            _, origin in origin == "ja" ? nil : "served \(origin)"
        }
        let away = f.resources.path + "/.ja.lproj.away"
        for round in 0..<rounds {
            let pause = pauses(round)
            #expect(rename(f.ja, away) == 0)
            usleep(pause.away)
            #expect(rename(away, f.ja) == 0)
            usleep(pause.between)
        }
        #expect(poller.waitForRounds(10))
        // Still watched: a save is served.
        try (ConsistencyPoller.table("ja") + "\"new\" = \"saved\";\n")
            .write(toFile: f.ja + "/Localizable.strings", atomically: true, encoding: .utf8)
        try f.awaitChange("ja")
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.rounds) rounds: \(report.failures)")
    }

    /// A root on a tmpfs (or a directory below the root, `sub`) that is unmounted, then
    /// mounted again with new content: the last tables are served meanwhile, and the new
    /// mount is found (on the missing-root timer), read and watched with no `reload`.
    /// Skipped, with the reason printed, where a tmpfs cannot be mounted (not root, no mount
    /// permission).
    @Test(arguments: ["", "/sub"]) func aMountUnmountedAndMountedAgainIsReadAndWatched(below: String) throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-mounted")
        let mountPoint = resources.path + below
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        func mount() throws -> Bool {
            let result = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint])
            if result.status != 0 {
                print("skipped aMountUnmountedAndMountedAgainIsReadAndWatched: cannot mount a tmpfs: \(result.stderr)")
            }
            return result.status == 0
        }
        guard try mount() else { return }
        defer { _ = try? ProcessRunner.run("/bin/umount", ["-l", mountPoint]) }
        func write(_ value: String, _ language: String) throws {
            let path = mountPoint + "/\(language).lproj"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try "\"k\" = \"\(value)\";\n".write(
                toFile: path + "/Localizable.strings", atomically: true, encoding: .utf8)
        }
        try write("en", "en")
        try write("before", "fr")
        let daemon = try DaemonProcess(resources: [resources.path])
        func value() throws -> String? {
            try daemon.request(["op": "lookup", "key": "k", "lang": "fr", "table": "Localizable"])["value"] as? String
        }
        #expect(try value() == "before")
        #expect(try ProcessRunner.run("/bin/umount", [mountPoint]).status == 0)
        // Gone with its file system, but the last tables stay (past every hold's grace).
        let unmounted = Date()
        while Date().timeIntervalSince(unmounted) < 1.5 {
            let served = try value()
            #expect(served == "before")
            if served != "before" { break }
            usleep(20_000)
        }
        guard try mount() else { return }
        try write("en", "en")
        try write("remounted", "fr")
        #expect(try eventually(20) { try value() == "remounted" })
        // Watched again: an edit on the new mount is served.
        try write("edited", "fr")
        #expect(try eventually(20) { try value() == "edited" })
    }
}
