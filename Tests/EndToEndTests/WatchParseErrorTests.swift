import Foundation
import LocalizationWire
import TestSupport
import Testing

/// `l10nctl watch` and the protocol's change stream report a save that does not parse, with
/// file:line:column (issue 23 item 8); a client that knows no `errors` reads it as a change
/// of nothing.
@Suite struct WatchParseErrorTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    /// Runs `l10nctl watch` (with `arguments`) against a daemon serving one `ja` file, saves
    /// `broken` into it and returns the first line watch prints, and the file's path.
    func watchABrokenSave(_ arguments: [String] = []) throws -> (line: String, path: String) {
        let resources = try TemporaryDirectory()
        let path = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let watch = try WatchProcess(daemon: daemon, arguments: arguments)
        try "\"k\" = \"new\"\n\"j\" = \"x\";\n".write(toFile: path, atomically: true, encoding: .utf8)
        let text = watch.output()
        // The last good text is still served.
        let reply = try daemon.request(["op": "lookup", "key": "k", "lang": "ja"])
        #expect(reply["value"] as? String == "old", "\(reply)")
        return (text, path)
    }

    @Test func watchNamesTheBrokenSaveWhereItBreaks() throws {
        let (text, path) = try watchABrokenSave()
        #expect(text.hasPrefix("\(path):1:12: error: missing ';'"), "\(text)")
        #expect(text.hasSuffix("(generation 1, with the file's last good text, is still served)\n"), "\(text)")
    }

    @Test func theJSONChangeStreamCarriesTheErrors() throws {
        let (text, path) = try watchABrokenSave(["--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "changed" && (object["changes"] as? [Any])?.isEmpty == true)
        let error = try #require((object["errors"] as? [[String: Any]])?.first)
        #expect(error["file"] as? String == path && error["line"] as? Int == 1 && error["column"] as? Int == 12)
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test func theEventRoundTripsAndReadsAsNoChangeInBinaryFrames() throws {
        let event = WireServerMessage.event(
            .fileErrors(
                generation: 7,
                errors: [WireFileError(file: "/r/ja.lproj/L.strings", line: 2, column: 1, message: "missing ';'")]))
        let line = JSONLineCodec.encode(event)
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"{"event":"changed","generation":7,"changes":[],"errors":[{"file":"/r/ja.lproj/L.strings","line":2,"column":1,"message":"missing ';'"}]}"#
                + "\n")
        #expect(try JSONLineCodec.decodeServerMessage(Array(line.dropLast())) == event)
    }
}
