import Foundation
import TestSupport
import Testing

/// `l10nctl lint` on file shapes it let pass in silence, through the built executable.
@Suite struct LintFileShapeTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func lint(_ root: TemporaryDirectory) throws -> (findings: [[String: Any]], output: ProcessOutput) {
        let output = try ProcessRunner.run(
            l10nctl, ["lint", root.path, "--format", "json"], environment: ["PATH": "/usr/bin:/bin"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        return (try #require(object["findings"] as? [[String: Any]]), output)
    }

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
        let (findings, output) = try lint(root)
        #expect(
            summary(findings, file: "de.lproj/Localizable.strings") == ["non-string-value@1:1", "duplicate-key@3:1"],
            "\(output.stdout)")
        let duplicate = try #require(findings.first { $0["rule"] as? String == "duplicate-key" })
        #expect(duplicate["message"] as? String == "duplicate key \"a\" (first at 1:1); the last one wins")
    }
}
