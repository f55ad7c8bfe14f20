import Foundation
import TestSupport
import Testing

/// A key that leaves the missing-key report once a reload translates it: it stayed listed
/// until `reset`, so a lead read keys translators had already done (issue 23, item 13).
@Suite struct MissingReportForgetsTranslatedTests {
    @Test func aKeyTranslatedByAReloadLeavesTheReport() throws {
        let resources = try TemporaryDirectory()
        try resources.write(
            "\"title\" = \"Title\";\n\"quit\" = \"Quit\";\n", to: "en.lproj/Localizable.strings")
        try resources.write("\"title\" = \"Titel\";\n", to: "de.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        for key in ["quit", "nowhere"] {
            _ = try daemon.request(["op": "lookup", "key": key, "lang": "de"])
        }
        func listed() throws -> [String] {
            let entries = try daemon.request(["op": "missing"])["missing"] as? [[String: Any]] ?? []
            return entries.map { "\($0["lang"] ?? "")/\($0["key"] ?? "")" }.sorted()
        }
        #expect(try listed() == ["de/nowhere", "de/quit"])
        try resources.write("\"title\" = \"Titel\";\n\"quit\" = \"Beenden\";\n", to: "de.lproj/Localizable.strings")
        #expect(
            ClientDaemonTests.wait(seconds: 10) {
                (try? daemon.request(["op": "lookup", "key": "title", "lang": "de"]))?["generation"] as? Int ?? 0 > 1
                    && (try? listed()) == ["de/nowhere"]
            }, "\((try? listed()) ?? [])")
    }
}
