import Foundation
import TestSupport
import Testing

/// A large String Catalog is parsed apart from the reload queue: a small edit saved while
/// it parses is served before it, and rapid saves of it never serve an older content after
/// a newer one.
@Suite struct LargeFileParseTests {
    /// Keys in the generated catalog: about 4 MB, which a debug build parses in over a second.
    static let catalogKeys = 15_000

    /// A String Catalog of `catalogKeys` keys in English and Japanese whose `marker` key
    /// says `version` in Japanese.
    static func catalog(version: Int, keys: Int = catalogKeys) -> Data {
        var text = #"{"sourceLanguage":"en","version":"1.0","strings":{"#
        text += #""marker":{"localizations":{"ja":{"stringUnit":{"state":"translated","value":"big \#(version)"}}}}"#
        for index in 0..<keys {
            let key = "key\(index)"
            text += #","\#(key)":{"localizations":{"#
            text += #""en":{"stringUnit":{"state":"translated","value":"English \#(key), version \#(version)"}},"#
            text += #""ja":{"stringUnit":{"state":"translated","value":"日本語の\#(key)、版\#(version)"}}}}"#
        }
        return Data((text + "}}").utf8)
    }

    /// Writes the catalog of `version` to `directory` the way editors save (a new file
    /// renamed into place).
    static func saveCatalog(version: Int, keys: Int = catalogKeys, in directory: String) throws {
        try catalog(version: version, keys: keys).write(
            to: URL(fileURLWithPath: directory + "/Big.xcstrings"), options: .atomic)
    }

    /// A daemon over a big catalog (version 0) and a small `ja` table, with a subscriber.
    final class Fixture {
        let resources: TemporaryDirectory
        let daemon: DaemonProcess
        let subscriber: JSONLineClient

        init() throws {
            resources = try TemporaryDirectory(prefix: "l10nd-large")
            try resources.write(LargeFileParseTests.catalog(version: 0), to: "Big.xcstrings")
            try resources.write("\"k\" = \"small 0\";\n", to: "ja.lproj/Small.strings")
            daemon = try DaemonProcess(resources: [resources.path], startTimeout: 60)
            subscriber = try daemon.connect(timeout: 60)
            #expect(try subscriber.request(["op": "subscribe"])["ok"] as? Bool == true)
        }

        func saveCatalog(version: Int) throws {
            try LargeFileParseTests.saveCatalog(version: version, in: resources.path)
        }

        func value(_ key: String, table: String) throws -> String? {
            try daemon.request(["op": "lookup", "key": key, "lang": "ja", "table": table])["value"] as? String
        }

        /// Gives the running daemon `room` bytes of data beyond what it uses now (`VmData`),
        /// as `RLIMIT_DATA` set from outside with `prlimit --pid`; `nil` lifts the limit.
        func limitData(room: Int?) throws {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "prlimit is not installed")
            let pid = daemon.process.processIdentifier
            var limit = "unlimited"
            if let room {
                let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
                let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmData:") })
                let used = try #require(line.split(separator: " ").dropFirst().first.flatMap { Int($0) }) * 1024
                limit = "\(used + room)"
            }
            let result = try ProcessRunner.run("/usr/bin/prlimit", ["--pid", "\(pid)", "--data=\(limit):unlimited"])
            try #require(result.status == 0, "prlimit: \(result.stderr)")
        }

        /// Records it when the daemon has ended: deferred by a test that squeezes its memory.
        func expectStillRunning() {
            usleep(500_000)  // a crash's backtrace takes a moment
            if !daemon.process.isRunning { Issue.record("l10nd ended: \(daemon.log.prefix(3000))") }
        }

        /// Waits until `status` lists an out-of-memory error; the errors seen, if it does not.
        func outOfMemoryError(within seconds: Double = 60) throws -> [[String: Any]]? {
            var errors: [[String: Any]] = []
            let listed = try eventually(seconds) {
                errors = try daemon.request(["op": "status"])["errors"] as? [[String: Any]] ?? []
                return errors.contains { ($0["message"] as? String ?? "").contains("out of memory") }
            }
            return listed ? nil : errors
        }

        /// The tables the next `changed` event names, as `lang/table`.
        func nextChange() throws -> Set<String> {
            while true {
                let event = try subscriber.readObject()
                guard event["event"] as? String == "changed" else { continue }
                let changes = event["changes"] as? [[String: Any]] ?? []
                return Set(changes.map { "\($0["lang"] as? String ?? "")/\($0["table"] as? String ?? "")" })
            }
        }
    }

    /// The issue's case: a big catalog rewritten, a small table edited while it parses. The
    /// small edit's `changed` event comes first, with the catalog still at its old version
    /// then; the catalog's comes after, with its new content.
    @Test func aSmallEditIsServedWhileABigCatalogParses() throws {
        let f = try Fixture()
        try f.saveCatalog(version: 1)
        // Past the settle window: the catalog's batch is read and its parse under way.
        usleep(300_000)
        try f.resources.write("\"k\" = \"small 1\";\n", to: "ja.lproj/Small.strings")
        let first = try f.nextChange()
        #expect(first == ["ja/Small"], "the catalog was served before the small edit: \(first)")
        #expect(try f.value("k", table: "Small") == "small 1")
        #expect(try f.value("marker", table: "Big") == "big 0", "the catalog's parse ended before the small edit")
        let second = try f.nextChange()
        #expect(second.contains("ja/Big"), "\(second)")
        #expect(try f.value("marker", table: "Big") == "big 1")
        #expect(try f.value("key7", table: "Big") == "日本語のkey7、版1")
    }

    /// Saves faster than a parse: the catalog is saved every 150 ms while a client looks it
    /// up. The versions served never go back, and the last save is served in the end.
    @Test func rapidSavesOfABigCatalogNeverServeAnOlderContentAfterANewerOne() throws {
        let f = try Fixture()
        let saves = 8
        let done = DispatchSemaphore(value: 0)
        let directory = f.resources.path
        DispatchQueue.global().async {
            for version in 1...saves {
                try? LargeFileParseTests.saveCatalog(version: version, in: directory)
                usleep(150_000)
            }
            done.signal()
        }
        var served: [Int] = []
        let client = try f.daemon.connect(timeout: 60)
        func version() throws -> Int {
            let reply = try client.request(["op": "lookup", "key": "marker", "lang": "ja", "table": "Big"])
            return Int((reply["value"] as? String ?? "").dropFirst("big ".count)) ?? -1
        }
        while done.wait(timeout: .now()) == .timedOut {
            served.append(try version())
            usleep(5_000)
        }
        let deadline = Date().addingTimeInterval(60)
        while served.last != saves, Date() < deadline {
            served.append(try version())
            usleep(20_000)
        }
        #expect(served.last == saves, "the last save was not served: \(Set(served).sorted())")
        let backwards = zip(served, served.dropFirst()).filter { $0 > $1 }
        #expect(backwards.isEmpty, "an older content served after a newer one: \(backwards)")
        #expect(!served.contains(-1), "a lookup did not answer a version")
    }

    /// A parse that would not fit in the memory the daemon may still get (`RLIMIT_DATA`
    /// set on the running daemon with `prlimit`) is not started: that file fails with an
    /// "out of memory" error and keeps its table, the daemon goes on serving and reloading,
    /// and the same bytes are parsed once the limit is lifted.
    @Test func aParseThatWouldNotFitInMemoryFailsThatFileOnly() throws {
        let f = try Fixture()
        defer { f.expectStillRunning() }
        // 64 MB more: room to read the 14 MB catalog a few times over (each refresh of it
        // reads it), not to parse it (its estimate is about 5 times the file: 2.7 in one
        // allocation of its tape, then its model).
        try f.limitData(room: 64 << 20)
        try Self.saveCatalog(version: 1, keys: 75_000, in: f.resources.path)
        let errors = try f.outOfMemoryError()
        #expect(errors == nil, "no out-of-memory error: \(errors ?? [])")
        #expect(try f.value("marker", table: "Big") == "big 0", "the catalog's last good table is not served")
        try f.resources.write("\"k\" = \"small 1\";\n", to: "ja.lproj/Small.strings")
        #expect(try eventually(30) { try f.value("k", table: "Small") == "small 1" }, "a small edit was not served")
        try f.limitData(room: nil)
        try Self.saveCatalog(version: 1, keys: 75_000, in: f.resources.path)
        #expect(
            try eventually(120) { try f.value("marker", table: "Big") == "big 1" },
            "not parsed after the limit was lifted")
        #expect(f.daemon.process.isRunning, "\(f.daemon.log.suffix(2000))")
        #expect(f.daemon.log.contains("out of memory"), "the log does not say it")
    }

    /// The outside tester's case: a catalog of many small values (40,000 keys in 4 languages,
    /// laid out like Xcode, 27 MB) whose parse takes more than its file's size suggests.
    /// With 116 MB more than `VmData` (the read's check passes from about 111 MB; the parse
    /// fits from about 122 in a debug build), the old estimate (its tape and the file again)
    /// let it start, and an allocation failed: SIGABRT. It must be refused instead.
    @Test func aCatalogOfManySmallValuesIsRefusedWhenItsParseWouldNotFit() throws {
        let f = try Fixture()
        defer { f.expectStillRunning() }
        try f.limitData(room: 116 << 20)
        var text = "{\n  \"sourceLanguage\": \"en\",\n  \"strings\": {"
        for index in 0..<40_000 {
            text += index == 0 ? "\n" : ",\n"
            text += "    \"key.\(index)\": {\n      \"localizations\": {"
            for (number, lang) in ["en", "fr", "de", "ja"].enumerated() {
                text += number == 0 ? "\n" : ",\n"
                text += "        \"\(lang)\": {\n          \"stringUnit\": {\n"
                text += "            \"state\": \"translated\",\n"
                text += "            \"value\": \"value number \(index) with a few words in \(lang)\"\n"
                text += "          }\n        }"
            }
            text += "\n      }\n    }"
        }
        text += "\n  },\n  \"version\": \"1.0\"\n}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: f.resources.path + "/Big.xcstrings"), options: .atomic)
        let errors = try f.outOfMemoryError()
        #expect(errors == nil, "no out-of-memory error: \(errors ?? [])")
        try #require(f.daemon.process.isRunning, "l10nd ended: \(f.daemon.log.suffix(2000))")
        #expect(try f.value("marker", table: "Big") == "big 0", "the catalog's last good table is not served")
    }

    /// A large file that would not even fit to be read (less room than its size: the read's
    /// buffer is the file's size) is not read: several saves of it under that limit each fail
    /// it with an "out of memory" error, its last good table is served, and l10nd does not
    /// end (an allocation that fails aborts the process, caught or not).
    @Test func aFileThatWouldNotFitToBeReadFailsThatFileOnlyOnEverySave() throws {
        let f = try Fixture()
        defer { f.expectStillRunning() }
        // 48 MB more: room for the daemon's threads (their stacks count) and requests, less
        // than the 61 MB catalog saved, so reading it unchecked fails its buffer.
        try f.limitData(room: 48 << 20)
        for version in 1...3 {
            try Self.saveCatalog(version: version, keys: 330_000, in: f.resources.path)
            let errors = try f.outOfMemoryError()
            #expect(errors == nil, "no out-of-memory error after save \(version): \(errors ?? [])")
            try #require(f.daemon.process.isRunning, "l10nd ended after save \(version)")
            #expect(try f.value("marker", table: "Big") == "big 0", "the catalog's last good table is not served")
        }
        usleep(2_000_000)  // the last save's error may be the one before: give its read time
        #expect(f.daemon.process.isRunning, "l10nd ended: \(f.daemon.log.suffix(2000))")
        #expect(f.daemon.log.contains("reading and parsing it takes"), "the log does not say it")
    }
}
