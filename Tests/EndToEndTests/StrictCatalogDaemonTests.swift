import Foundation
import TestSupport
import Testing

/// A String Catalog saved with a trailing comma or a key twice is a broken file to the daemon
/// as to Xcode and `jq` (issue 23 item 5): an error at its line and column in `status`, and
/// the last good table served until it is fixed.
@Suite struct StrictCatalogDaemonTests {
    static func catalog(_ value: String, trailer: String = "") -> String {
        """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "k" : {
              "localizations" : {
                "ja" : { "stringUnit" : { "state" : "translated", "value" : "\(value)" } }
              }
            }\(trailer)
          },
          "version" : "1.0"
        }

        """
    }

    @Test(arguments: [
        (",", 8, 6, "invalid JSON: trailing comma before '}'"),
        (#", "k" : {}"#, 8, 8, #"invalid JSON: duplicate key "k" (first at 4:5)"#),
    ])
    func aNonStrictSaveKeepsTheLastGoodTable(trailer: String, line: Int, column: Int, message: String) throws {
        let f = try HotReloadTests.Fixture(files: ["Localizable.xcstrings": Self.catalog("original")])
        let path = f.resources.path + "/Localizable.xcstrings"
        #expect(try f.value() == "original")
        try Self.catalog("broken", trailer: trailer).write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(try f.awaitErrors().first)
        #expect(error["file"] as? String == path)
        #expect(error["line"] as? Int == line && error["column"] as? Int == column, "\(error)")
        #expect((error["message"] as? String)?.hasPrefix(message) == true, "\(error)")
        #expect(try f.value() == "original")
        try Self.catalog("fixed").write(toFile: path, atomically: true, encoding: .utf8)
        try f.awaitChange("ja")
        #expect(try f.value() == "fixed")
    }
}
