import Foundation
import TestSupport
import Testing

/// `l10nctl reload` answers for the disk as it is: a table deleted before it is no longer
/// served when it returns, and the reply names it, even when the watcher would wait long
/// (`--settle-ms 10000`) before it applied the deletion itself. (An outside tester found the
/// deleted table still served after a reload that said "0 tables changed".)
@Suite struct ReloadDeletionTests {
    @Test func aDeletedTableIsGoneWhenReloadReturns() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"Wert\";\n", to: "de.lproj/Localizable.strings")
        try resources.write("\"two\" = \"zwei\";\n", to: "de.lproj/Extra.strings")
        let daemon = try DaemonProcess(resources: [resources.path], arguments: ["--settle-ms", "10000"])
        let before = try daemon.request(["op": "lookup", "key": "two", "lang": "de", "table": "Extra"])
        #expect(before["value"] as? String == "zwei")

        #expect(unlink(resources.path + "/de.lproj/Extra.strings") == 0)
        let reply = try daemon.request(["op": "reload"])
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let changes = try #require(reply["changes"] as? [[String: Any]], "\(reply)")
        #expect(changes.contains { $0["lang"] as? String == "de" && $0["table"] as? String == "Extra" }, "\(reply)")
        let after = try daemon.request(["op": "lookup", "key": "two", "lang": "de", "table": "Extra"])
        #expect(after["found"] as? Bool == false, "\(after)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
