import Foundation
import TestSupport
import Testing

/// `l10nctl lint` on file shapes it let pass in silence, through the built executable.
@Suite struct LintFileShapeTests {
    func summary(_ findings: [[String: Any]], file: String) -> [String] {
        findings.filter { ($0["file"] as? String)?.hasSuffix(file) == true }.map {
            "\($0["rule"]!)@\($0["line"]!):\($0["column"]!)"
        }
    }

    /// A key whose first entry is left out (an array value) and whose second is a string:
    /// the duplicate was not reported, as only the entries served were compared.
    @Test func aDuplicateOfAnEntryLeftOutIsReported() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"b\" = \"B\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"a\" = (\"x\");\n\"b\" = \"B\";\n\"a\" = \"A\";\n", to: "de.lproj/Localizable.strings")
        let lint = try L10nctl.lint(root.path)
        let (findings, output) = (lint.findings, lint.output)
        #expect(lint.object["findings"] is [[String: Any]], "\(output.stdout)")
        #expect(
            summary(findings, file: "de.lproj/Localizable.strings") == ["non-string-value@1:1", "duplicate-key@3:1"],
            "\(output.stdout)")
        let duplicate = try #require(findings.first { $0["rule"] as? String == "duplicate-key" })
        #expect(duplicate["message"] as? String == "duplicate key \"a\" (first at 1:1); the last one wins")
    }
}
