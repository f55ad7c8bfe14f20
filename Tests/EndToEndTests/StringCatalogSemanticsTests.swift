import Foundation
import TestSupport
import Testing

/// String Catalog rules through the real executables: the catalog's `sourceLanguage` is its
/// keys' fallback, `L10N_DEVICE` picks the device variant, and every state is served and
/// counted alike by lookup, `coverage` and `lint`.
@Suite struct StringCatalogSemanticsTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    static let catalog = """
        {
          "sourceLanguage" : "de",
          "strings" : {
            "Nur deutsch" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Nur auf Deutsch" } }
              }
            },
            "Tippen" : {
              "localizations" : {
                "de" : { "variations" : { "device" : {
                  "iphone" : { "stringUnit" : { "state" : "translated", "value" : "Tippen" } },
                  "mac" : { "stringUnit" : { "state" : "translated", "value" : "Klicken" } }
                } } },
                "fr" : { "stringUnit" : { "state" : "new", "value" : "Cliquer" } }
              }
            },
            "Alt" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Alt" } },
                "fr" : { "stringUnit" : { "state" : "stale", "value" : "Vieux" } }
              }
            },
            "Prüfen" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Prüfen" } },
                "fr" : { "stringUnit" : { "state" : "needs_review", "value" : "Vérifier" } }
              }
            }
          },
          "version" : "1.0"
        }
        """

    func app() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("Localizable.xcstrings", Self.catalog)
        return directory
    }

    func get(_ key: String, _ lang: String, in app: TemporaryDirectory, device: String? = nil) throws -> String {
        var environment = ["PATH": "/usr/bin:/bin"]
        environment["L10N_DEVICE"] = device
        let result = try ProcessRunner.run(
            l10nctl, ["get", key, "--lang", lang, "--resources", app.path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func sourceLanguageIsTheFallbackInFilesAndDaemonModes() throws {
        let app = try app()
        #expect(try get("Nur deutsch", "fr", in: app) == "Nur auf Deutsch\n")
        let daemon = try DaemonProcess(resources: [app.path])
        let reply = try daemon.connect().request(["op": "lookup", "key": "Nur deutsch", "lang": "fr"])
        #expect(reply["value"] as? String == "Nur auf Deutsch")
        #expect(reply["lang"] as? String == "de")
        #expect(reply["found"] as? Bool == true)
    }

    @Test func theDeviceRuleIsConfigurable() throws {
        let app = try app()
        #expect(try get("Tippen", "de", in: app) == "Klicken\n")
        #expect(try get("Tippen", "de", in: app, device: "iphone") == "Tippen\n")
        #expect(try get("Tippen", "de", in: app, device: "../bad") == "Klicken\n")
    }

    @Test func everyStateIsServedCountedAndLinted() throws {
        let app = try app()
        #expect(try get("Tippen", "fr", in: app) == "Cliquer\n")
        #expect(try get("Alt", "fr", in: app) == "Vieux\n")
        #expect(try get("Prüfen", "fr", in: app) == "Vérifier\n")
        let coverage = try ProcessRunner.run(
            l10nctl, ["coverage", app.path, "--format", "json", "--development-language", "de"],
            environment: ["PATH": "/usr/bin:/bin"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(coverage.stdout.utf8)) as? [String: Any])
        let french = try #require((object["languages"] as? [[String: Any]])?.first { $0["lang"] as? String == "fr" })
        #expect(french["translated"] as? Int == 3)
        #expect(french["total"] as? Int == 4)
        #expect(french["new"] as? Int == 1)
        #expect(french["stale"] as? Int == 1)
        #expect(french["needs_review"] as? Int == 1)
        let lint = try ProcessRunner.run(
            l10nctl, ["lint", app.path + "/Localizable.xcstrings"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        for state in ["new", "stale", "needs_review"] {
            #expect(lint.stdout.contains("is marked \(state)"), "\(lint.stdout)")
        }
        #expect(!lint.stdout.contains(":1:1:"), "\(lint.stdout)")
    }

    /// Without `--development-language`, and beside an `en.lproj` file of the same table, the
    /// catalog's keys are still measured against its own `sourceLanguage` (the attack's case:
    /// `reference: en` and fr 0/1).
    @Test func coverageMeasuresACatalogAgainstItsSourceLanguage() throws {
        let app = try app()
        try app.write("en.lproj/Localizable.strings", "\"Hello\" = \"Hello\";\n")
        let coverage = try ProcessRunner.run(
            l10nctl, ["coverage", app.path, "--format", "json"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(coverage.status == 0, "\(coverage.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(coverage.stdout.utf8)) as? [String: Any])
        #expect(object["reference"] as? String == "de")
        #expect(object["references"] as? [String: String] == ["Localizable": "de"])
        let languages = try #require(object["languages"] as? [[String: Any]])
        #expect(!languages.contains { $0["lang"] as? String == "de" })
        let french = try #require(languages.first { $0["lang"] as? String == "fr" })
        #expect(french["translated"] as? Int == 3)
        #expect(french["total"] as? Int == 4)
        #expect(french["new"] as? Int == 1)
        #expect(french["stale"] as? Int == 1)
        #expect(french["needs_review"] as? Int == 1)
        let english = try #require(languages.first { $0["lang"] as? String == "en" })
        #expect(english["translated"] as? Int == 0)
        #expect(english["total"] as? Int == 4)
    }
}

/// The daemon serves the rest of a file with a bad entry, and lists the entry in `status`.
@Suite struct BadEntryDaemonTests {
    @Test func theRestIsServedAndTheEntryListed() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "ru.lproj/Localizable.stringsdict",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            <key>bad</key>
            <dict><key>NSStringLocalizedFormatKey</key><string>%#@gone@</string></dict>
            <key>good</key>
            <string>Хорошо</string>
            </dict>
            </plist>
            """)
        let daemon = try DaemonProcess(resources: [directory.path])
        let client = try daemon.connect()
        let good = try client.request(["op": "lookup", "key": "good", "lang": "ru"])
        #expect(good["value"] as? String == "Хорошо")
        let status = try client.request(["op": "status"])
        let errors = try #require(status["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect((error["message"] as? String)?.contains("\"bad\"") == true, "\(error)")
        #expect(error["line"] as? Int == 4)
        #expect((error["file"] as? String)?.hasSuffix("ru.lproj/Localizable.stringsdict") == true)
    }
}
