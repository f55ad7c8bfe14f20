import Foundation
import LocalizationCore
import TestSupport
import Testing

/// The real `l10nd` answers exactly what the embedded mode answers for the same files.
@Suite struct DaemonLookupTests {
    @Test func jsonLookupsMatchTheEmbeddedMode() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let embedded = ResourceSet.load(roots: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        let keys = ["多言語化", "こんにちは", "保存", "設定", "about.title", "ようこそ、%@さん", "nobody has this"]
        let languages = [
            "en", "ja", "ja_JP.UTF-8", "de", "fr", "zh-TW", "zh_CN", "pt-BR", "pt-PT", "ko", "Base", "English",
        ]
        for key in keys {
            for language in languages {
                let reply = try client.request(["op": "lookup", "key": key, "lang": language])
                let expected = embedded.lookup(key, languages: [try LanguageTag(language)])
                #expect(reply["ok"] as? Bool == true)
                #expect(reply["value"] as? String == expected.value, "\(key) in \(language)")
                #expect(reply["found"] as? Bool == expected.found, "\(key) in \(language)")
                #expect((reply["lang"] as? String) == expected.language?.identifier, "\(key) in \(language)")
            }
        }
    }

    @Test func preferenceListsBatchesAndTables() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        let listed = try client.request(["op": "lookup", "key": "保存", "lang": ["ja", "de"], "id": 7])
        #expect(listed["value"] as? String == "Sichern")
        #expect(listed["id"] as? Int == 7)
        let batch = try client.request(["op": "batch", "lang": "ja", "keys": ["多言語化", "保存", "nope"]])
        #expect(batch["values"] as? [String] == ["多言語化", "Save", "nope"])
        #expect(batch["found"] as? [Bool] == [true, true, false])
        let table = try client.request(["op": "table", "lang": "ja", "table": "Settings"])
        #expect((table["entries"] as? [String: String])?["title"] == "環境設定")
        let missing = try client.request(["op": "missing"])
        let entries = try #require(missing["missing"] as? [[String: Any]])
        #expect(entries.contains { $0["key"] as? String == "nope" && $0["lang"] as? String == "ja" })
    }

    @Test func socatSpeaksTheProtocol() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/socat"), "socat is not installed")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let result = try ProcessRunner.run(
            "/bin/sh",
            [
                "-c",
                "printf '%s\\n' '{\"op\":\"lookup\",\"key\":\"多言語化\",\"lang\":\"en\"}' | /usr/bin/socat -t 2 - UNIX-CONNECT:\(daemon.socketPath)",
            ])
        #expect(
            result.stdout
                == "{\"ok\":true,\"value\":\"Multilingualization\",\"found\":true,\"lang\":\"en\",\"generation\":1}\n")
    }

    @Test func badTagsAndBadRequestsGetErrors() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        let badTag = try client.request(["op": "lookup", "key": "k", "lang": "../etc"])
        #expect(badTag["ok"] as? Bool == false)
        #expect((badTag["error"] as? [String: Any])?["code"] as? String == "bad_request")
        try client.send(line: "this is not json")
        let garbage = try client.readObject()
        #expect((garbage["error"] as? [String: Any])?["code"] as? String == "bad_request")
        #expect(try client.request(["op": "hello"])["ok"] as? Bool == true)
    }

    /// A width Foundation traps on, from a client's key or a translator's file, once stopped
    /// the daemon (an outside tester's finding): it is now the lookup's formatting error.
    @Test func aHugeFormatWidthNeitherStopsNorBloatsTheDaemon() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        for key in ["%99999999999d", "%2147483648d", "%100000000d"] {
            let reply = try client.request(["op": "lookup", "key": key, "args": [5]])
            #expect(reply["ok"] != nil, "\(key): \(reply)")
        }
        #expect(try client.request(["op": "hello"])["ok"] as? Bool == true, "\(daemon.log)")
    }

    @Test func sigtermDrainsExitsZeroAndRemovesTheSocket() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "\(daemon.log)")
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesToStart() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let second = try ProcessRunner.run(
            PackagePaths.executable("l10nd"),
            ["--resources", PackagePaths.exampleResources, "--socket", daemon.socketPath])
        #expect(second.status == 1)
        // Named as what it is, asked and told by the kernel (SO_PEERCRED).
        #expect(
            second.stderr.contains(
                "another l10nd (pid \(daemon.process.processIdentifier) `l10nd`, user ")
                && second.stderr.contains("is listening on \(daemon.socketPath)"),
            "\(second.stderr)")
        #expect(try daemon.request(["op": "hello"])["ok"] as? Bool == true)
    }

    @Test func aBadConfigurationStopsStartUpWithItsLine() throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("resources = .\nsettle_ms = soon\n", to: "l10nd.conf")
        let result = try ProcessRunner.run(PackagePaths.executable("l10nd"), ["--config", config])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(config):2:"), "\(result.stderr)")
    }
}
