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
        #expect((status["errors"] as? [[String: Any]] ?? []).allSatisfy { $0["left_out"] as? Bool == true })

        // `l10nctl status` lists them as entries left out, not as files kept at their last good table.
        let text = try ProcessRunner.run(l10nctl, ["status", "--socket", daemon.socketPath])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("errors: none\n"), "\(text.stdout)")
        #expect(
            text.stdout.contains(
                "entries left out (2; the rest of each file is served):\n  \(french):2:1: the value of \"list\""),
            "\(text.stdout)")
    }

    let l10nctl = PackagePaths.executable("l10nctl")

    /// A save that parses but leaves entries out is announced by `l10nctl watch` with a
    /// warning per entry lost, as lint words it, after the change's line.
    @Test func watchWarnsOfEntriesASaveLeavesOut() throws {
        let (text, german, daemon) = try watchASaveThatLeavesAnEntryOut()
        // The daemon logs the entry lost, once.
        let logged = "\(german):2:1: the comment that starts here is never closed"
        #expect(eventually { daemon.log.contains(logged) }, "\(daemon.log)")
        #expect(daemon.log.components(separatedBy: logged).count == 2, "\(daemon.log)")
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasSuffix(": de/Localizable") == true, "\(text)")
        #expect(
            lines.dropFirst().first?.hasPrefix(
                "\(german):2:1: warning: the comment that starts here is never closed") == true, "\(text)")
    }

    /// `--format json` carries the same warning, as an object of its own after the change's event.
    @Test func watchInJSONCarriesTheWarningToo() throws {
        let (text, german, _) = try watchASaveThatLeavesAnEntryOut(["--format", "json"])
        let objects = try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\(text)")
        }
        #expect(objects.count == 2, "\(text)")
        #expect(objects.first?["event"] as? String == "changed", "\(text)")
        let warning = try #require(objects.last)
        #expect(warning["warning"] as? String == "left_out", "\(text)")
        // The generation of the change that left the entry out.
        #expect(warning["generation"] as? Int == objects.first?["generation"] as? Int, "\(text)")
        #expect(warning["file"] as? String == german && warning["line"] as? Int == 2 && warning["column"] as? Int == 1)
        #expect(
            (warning["message"] as? String)?.hasPrefix("the comment that starts here is never closed") == true,
            "\(text)")
    }

    /// Runs `l10nctl watch` (with `arguments`) against a daemon serving `de`, saves a file
    /// whose second entry is lost to a comment never closed, and returns watch's first two lines.
    func watchASaveThatLeavesAnEntryOut(_ arguments: [String] = []) throws -> (
        text: String, german: String, daemon: DaemonProcess
    ) {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"b\" = \"B\";\n", to: "en.lproj/Localizable.strings")
        let german = try root.write("\"a\" = \"Ah\";\n", to: "de.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [root.path])
        let watch = try WatchProcess(daemon: daemon, arguments: arguments)
        try "\"a\" = \"Aha\";\n/* never closed\n\"b\" = \"Bh\";\n".write(
            toFile: german, atomically: true, encoding: .utf8)
        return (watch.output(lines: 2), german, daemon)
    }
}
