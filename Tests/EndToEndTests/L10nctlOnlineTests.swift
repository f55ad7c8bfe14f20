import Foundation
import TestSupport
import Testing

/// The built `l10nctl` against a real `l10nd`.
@Suite struct L10nctlOnlineTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String], socket: String, timeout: TimeInterval = 30) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": socket], timeout: timeout)
    }

    @Test func getGoesThroughTheDaemonWhenNoFilesAreNamed() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let result = try run(["get", "多言語化", "--lang", "ja"], socket: daemon.socketPath)
        #expect(result.stdout == "多言語化\n", "\(result.stderr)")
        let json = try run(["get", "保存", "--lang", "ja", "--json"], socket: daemon.socketPath)
        #expect(json.stdout == "{\"found\":true,\"lang\":\"Base\",\"value\":\"Save\"}\n")
        let viaFlag = try ProcessRunner.run(l10nctl, ["get", "多言語化", "--lang", "de", "--socket", daemon.socketPath])
        #expect(viaFlag.stdout == "Mehrsprachigkeit\n")
    }

    @Test func noDaemonIsAClearFailure() throws {
        let result = try run(["status"], socket: "/tmp/l10nd-no-such-dir/none.sock")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no l10nd is listening on /tmp/l10nd-no-such-dir/none.sock"), "\(result.stderr)")
    }

    @Test func statusNamesBrokenFilesWithTheirPlace() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let broken = try resources.write("\"k\" = \"v\"\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let result = try run(["status"], socket: daemon.socketPath)
        #expect(result.status == 0)
        #expect(result.stdout.contains("\(broken):1:10: missing ';'"), "\(result.stdout)")
        #expect(result.stdout.contains("1 languages"))
        let json = try run(["status", "--json"], socket: daemon.socketPath)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["errors"] as? [Any])?.count == 1)
    }

    @Test func reloadWaitsForTheNewTables() throws {
        let resources = try TemporaryDirectory()
        let path = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        // A settle window far longer than the test: only the explicit reload can pick the edit up.
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--settle-ms", "10000"])
        try "\"k\" = \"new\";\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(["reload"], socket: daemon.socketPath)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("reloaded: generation 2"), "\(result.stdout)")
        #expect(try daemon.request(["op": "lookup", "key": "k", "lang": "ja"])["value"] as? String == "new")
    }

    /// Text status names the development language, as the JSON does (an outside tester's
    /// find: only `--json` had it).
    @Test func statusNamesTheDevelopmentLanguage() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"v\";\n", to: "de.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--development-language", "de"])
        let result = try run(["status"], socket: daemon.socketPath)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\ndevelopment language: de\n"), "\(result.stdout)")
    }

    /// A reload after the watcher already served an edit says l10nd was up to date, not
    /// "0 tables changed", which read as the edit lost.
    @Test func reloadAfterTheWatcherServedTheEditSaysItWasUpToDate() throws {
        let resources = try TemporaryDirectory()
        let path = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        try "\"k\" = \"new\";\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            eventually(10) {
                (try? daemon.request(["op": "lookup", "key": "k", "lang": "ja"]))?["value"] as? String == "new"
            })
        let result = try run(["reload"], socket: daemon.socketPath)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("reloaded: l10nd was already up to date at generation 2"), "\(result.stdout)")
        #expect(!result.stdout.contains("0 tables changed"), "\(result.stdout)")
    }

    @Test func watchPrintsEachChange() throws {
        let resources = try TemporaryDirectory()
        let path = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let watch = try WatchProcess(daemon: daemon)
        try "\"k\" = \"new\";\n".write(toFile: path, atomically: true, encoding: .utf8)
        let text = watch.output()
        #expect(text == "generation 2: ja/Localizable\n")
    }

    @Test func missingKeysAsAReportAndAsAStringsSkeleton() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        for key in ["untranslated \"one\"", "untranslated \"one\"", "second"] {
            _ = try client.request(["op": "lookup", "key": key, "lang": "ja"])
        }
        _ = try client.request(["op": "lookup", "key": "third", "lang": "de", "table": "Settings"])
        let report = try run(["missing"], socket: daemon.socketPath)
        #expect(report.stdout.contains("ja\tLocalizable\tuntranslated \"one\"\t2\t-\n"))
        #expect(report.stdout.contains("de\tSettings\tthird\t1\t-\n"))
        let skeleton = try run(["missing", "--format", "strings", "--lang", "ja"], socket: daemon.socketPath)
        #expect(skeleton.status == 0)
        #expect(skeleton.stdout.contains("\"untranslated \\\"one\\\"\" = \"untranslated \\\"one\\\"\";"))
        #expect(!skeleton.stdout.contains("third"))
        // The skeleton is itself a valid .strings file with exactly the missing keys.
        let directory = try TemporaryDirectory()
        let file = try directory.write(skeleton.stdout, to: "ja.strings")
        let dump = try ProcessRunner.run(l10nctl, ["dump", file])
        let table = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: String])
        #expect(Set(table.keys) == ["untranslated \"one\"", "second"])
        let usage = try run(["missing", "--format", "strings"], socket: daemon.socketPath)
        #expect(usage.status == 2)
    }

    /// What users of a language saw untranslated: keys a fallback answered are reported for
    /// the language asked first (`ja-JP` under `ja`), with the language that answered;
    /// answers in the language asked, and requests for the development language, are not.
    @Test func missingReportsFallbackAnswersPerLanguageAsSkeletons() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        for (key, language) in [
            ("保存", "ja"), ("保存", "ja-JP"), ("保存", "ja-JP,ja;q=0.9,fr;q=0.8"), ("多言語化", "ja"), ("保存", "en"),
            ("保存", "en-GB"), ("nowhere", "ja"),
        ] {
            let reply = try client.request(["op": "lookup", "key": key, "lang": language])
            #expect(reply["ok"] as? Bool == true, "\(reply)")
        }
        _ = try client.request(["op": "batch", "keys": ["title", "保存"], "lang": "ja", "table": "Settings"])
        let json = try run(["missing", "--format", "json"], socket: daemon.socketPath)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entries = try #require(object["missing"] as? [[String: Any]])
        let described = Set(
            entries.map {
                "\($0["lang"] ?? "")/\($0["table"] ?? "")/\($0["key"] ?? "")/\($0["from"] ?? "-")/\($0["count"] ?? 0)"
            })
        #expect(
            described == [
                "ja/Localizable/保存/Base/1", "ja-JP/Localizable/保存/fr/2", "ja/Localizable/nowhere/-/1",
                "ja/Settings/保存/-/1",
            ], "\(described)")

        let strings = try run(["missing", "--format", "strings", "--lang", "ja"], socket: daemon.socketPath)
        #expect(strings.status == 0, "\(strings.stderr)")
        #expect(
            strings.stdout.contains("/* asked 3 times; users saw the Base string */\n\"保存\" = \"Save\";"),
            "\(strings.stdout)")
        #expect(strings.stdout.contains("/* asked 1 time; found in no language */\n\"nowhere\" = \"nowhere\";"))
        let directory = try TemporaryDirectory()
        let lint = try ProcessRunner.run(l10nctl, ["dump", try directory.write(strings.stdout, to: "ja.strings")])
        #expect(lint.status == 0, "\(lint.stderr)")

        let po = try run(
            ["missing", "--format", "po", "--lang", "ja", "--table", "Localizable"], socket: daemon.socketPath)
        #expect(po.status == 0, "\(po.stderr)")
        #expect(po.stdout.hasPrefix("# Keys looked up in ja that ja lacks."), "\(po.stdout)")
        #expect(po.stdout.contains("\"Language: ja\\n\"\n"))
        #expect(
            po.stdout.contains(
                "#. asked 3 times; users saw the Base string\nmsgctxt \"Localizable\"\nmsgid \"保存\"\nmsgstr \"\"\n"))
        #expect(!po.stdout.contains("Settings"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") {
            let check = try ProcessRunner.run(
                "/usr/bin/msgfmt", ["--check", "-o", "/dev/null", try directory.write(po.stdout, to: "ja.po")])
            #expect(check.status == 0, "\(check.stderr)")
        } else {
            print("msgfmt is not installed: the .po skeleton's syntax is checked by its text only")
        }
    }

    /// Control characters in a key are written as PO's octal escapes (`\033`, three digits so a
    /// digit after one cannot join it), which `msgfmt --check` accepts; the `.strings`
    /// skeleton keeps `\U001B`, which that format reads.
    @Test func missingAsPOEscapesControlCharactersAsMsgfmtReadsThem() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        let key = "esc\u{1B}[1mbold\u{7}7\u{1}"
        let reply = try client.request(["op": "lookup", "key": key, "lang": "ja"])
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let po = try run(["missing", "--format", "po", "--lang", "ja"], socket: daemon.socketPath)
        #expect(po.status == 0, "\(po.stderr)")
        #expect(po.stdout.contains("msgid \"esc\\033[1mbold\\0077\\001\"\n"), "\(po.stdout)")
        #expect(!po.stdout.contains("\\U"))
        let directory = try TemporaryDirectory()
        let file = try directory.write(po.stdout, to: "ja.po")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") {
            let check = try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", file])
            #expect(check.status == 0, "\(check.stderr)")
        } else {
            print("skipped msgfmt --check: msgfmt is not installed (Debian gettext; scripts/install-dependencies)")
        }
    }

    @Test func resetEmptiesTheMissingKeyReportAndKeepsTheCounters() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        for key in ["多言語化", "nowhere", "nowhere"] {
            _ = try client.request(["op": "lookup", "key": key, "lang": "ja"])
        }
        let reset = try run(["reset"], socket: daemon.socketPath)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("missing-key report: it held 1 key, 0 dropped"), "\(reset.stdout)")
        #expect(reset.stdout.contains("counters are not reset"), "\(reset.stdout)")
        let status = try daemon.request(["op": "status"])
        let counters = try #require(status["counters"] as? [String: Any])
        #expect(counters["lookups"] as? Int == 3 && counters["misses"] as? Int == 2, "\(counters)")
        #expect(try run(["missing"], socket: daemon.socketPath).stdout.isEmpty)
    }

    @Test func languagesListsTables() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let result = try run(["languages"], socket: daemon.socketPath)
        #expect(result.stdout.contains("ja\tLocalizable, Menu, Plurals, Settings\n"))
    }
}
