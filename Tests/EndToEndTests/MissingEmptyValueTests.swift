import Foundation
import TestSupport
import Testing

/// A key served empty (a catalog unit `new` with `""`) is counted untranslated by coverage
/// and lint, and now by the missing-key report too (it was absent, so no skeleton offered
/// it); the development language's own empty value is no missing translation.
@Suite struct MissingEmptyValueTests {
    @Test func aKeyServedEmptyIsListedMissing() throws {
        let resources = try TemporaryDirectory()
        try resources.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "greet" : { "localizations" : {
                  "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello" } },
                  "fr" : { "stringUnit" : { "state" : "new", "value" : "" } }
                } },
                "blank" : { "localizations" : {
                  "en" : { "stringUnit" : { "state" : "translated", "value" : "" } }
                } }
              },
              "version" : "1.0"
            }

            """, to: "Localizable.xcstrings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let answer = try daemon.request(["op": "lookup", "key": "greet", "lang": "fr"])
        #expect(answer["value"] as? String == "", "\(answer)")
        _ = try daemon.request(["op": "lookup", "key": "blank", "lang": "en"])
        let entries = try daemon.request(["op": "missing"])["missing"] as? [[String: Any]] ?? []
        #expect(entries.map { "\($0["lang"] ?? "")/\($0["key"] ?? "")" } == ["fr/greet"], "\(entries)")
    }
}
