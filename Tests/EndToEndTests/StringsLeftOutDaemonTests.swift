import Foundation
import TestSupport
import Testing

/// A `.strings` file Foundation reads but l10nd used to refuse whole (issue 25) — a value
/// that is an array, a `/*` never closed at its end — is served through the real daemon with
/// the string keys Foundation keeps, and what is left out is listed with the file's errors.
@Suite struct StringsLeftOutDaemonTests {
    @Test func theStringKeysAreServedAndTheRestIsListed() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"list\" = \"List\";\n", to: "en.lproj/Localizable.strings")
        let french = try root.write(
            "\"a\" = \"Ah\";\n\"list\" = (\"x\", \"y\");\n/* à finir\n\"b\" = \"B\";\n",
            to: "fr.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [root.path])
        let served = try daemon.request(["op": "lookup", "key": "a", "lang": "fr"])
        #expect(served["value"] as? String == "Ah" && served["lang"] as? String == "fr", "\(served)")
        // The key whose value is no string falls back, as a missing one does.
        let list = try daemon.request(["op": "lookup", "key": "list", "lang": "fr"])
        #expect(list["value"] as? String == "List" && list["lang"] as? String == "en", "\(list)")
        let status = try daemon.request(["op": "status"])
        let errors = (status["errors"] as? [[String: Any]] ?? []).map {
            "\($0["file"] ?? ""):\($0["line"] ?? ""):\($0["column"] ?? ""): \($0["message"] ?? "")"
        }
        #expect(errors.count == 2, "\(status)")
        #expect(errors.contains { $0.hasPrefix("\(french):2:1: the value of \"list\" is an array") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("\(french):3:1: the comment that starts here is never closed") })
    }
}
