import Foundation
import TestSupport
import Testing

/// `l10nctl lint --format text|json|sarif` and `--severity` through the built executable.
@Suite struct LintOutputTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: arguments)
    }

    func project() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        try root.write("\"Save\" = \"Save\";\n\"Hello\" = \"Hello, %@\";\n", to: "en.lproj/Localizable.strings")
        try root.write(
            "\"Save\" = \"\";\n\"Hello\" = \"Hallo, %d\";\n\"Old\" = \"Alt\";\n", to: "de.lproj/Localizable.strings")
        return root
    }

    @Test func jsonCarriesRuleSeverityAndPlace() throws {
        let root = try project()
        let lint = try L10nctl.lint(root.path)
        let (result, object, findings) = (lint.output, lint.object, lint.findings)
        #expect(result.status == 1)
        #expect(object["findings"] is [[String: Any]], "\(result.stdout)")
        let summary = findings.map { "\($0["rule"]!)@\($0["line"]!):\($0["column"]!):\($0["severity"]!)" }
        #expect(summary == ["empty-value@1:1:warning", "placeholder-mismatch@2:1:error", "obsolete-key@3:1:warning"])
        #expect(object["errors"] as? Int == 1 && object["warnings"] as? Int == 2)
        #expect((findings[1]["related"] as? [String: Any])?["line"] as? Int == 2)
        // --json is the same output.
        #expect(try run("lint", root.path, "--json").stdout == result.stdout)
    }

    /// With `2>&1` the count on stderr comes after every finding, not before or mid-line.
    @Test func theSummaryFollowsTheFindingsInOneStream() throws {
        let root = try project()
        let result = try ProcessRunner.run("/bin/sh", ["-c", "\"$0\" lint \"$1\" 2>&1", l10nctl, root.path])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines.last == "1 error, 2 warnings", "\(result.stdout)")
    }

    @Test func severitiesChangeTheExitCode() throws {
        let root = try project()
        let result = try run(
            "lint", root.path, "--severity", "placeholder-mismatch=warning", "--severity", "obsolete-key=off")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").count == 2)
        #expect(result.stdout.contains("warning: \"Hello\": format specifiers differ"))
        let bad = try run("lint", root.path, "--severity", "loud=error")
        #expect(bad.status == 2 && bad.stderr.contains("RULE one of:"))
        #expect(try run("lint", root.path, "--format", "xml").status == 2)
    }

    /// Outside testers: lint passed a translation with `%5000d`, which the daemon refuses to
    /// format (widths and precisions over 4095). Now it is a warning, in every file kind.
    @Test func hugeWidthsAndPrecisionsAreWarned() throws {
        let root = try TemporaryDirectory()
        try root.write("\"Files\" = \"%d files\";\n\"Pi\" = \"%.2f\";\n", to: "en.lproj/Localizable.strings")
        try root.write(
            "\"Files\" = \"%5000d Dateien\";\n\"Pi\" = \"%.4095f\";\n", to: "de.lproj/Localizable.strings")
        let result = try run("lint", root.path)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "\(root.path)/de.lproj/Localizable.strings:1:1: warning: \"Files\": %5000d asks for a width or precision over 4095, which formatting refuses [format-width]"
            ], "\(result.stdout)")
        let catalog = try root.write(
            #"{"sourceLanguage":"en","version":"1.0","strings":{"n":{"localizations":{"en":{"stringUnit":{"state":"translated","value":"%.99999f"}}}}}}"#,
            to: "Other.xcstrings")
        let fromCatalog = try run("lint", catalog)
        #expect(
            fromCatalog.stdout.contains("\"n\": %.99999f asks for a width or precision over 4095"), "\(fromCatalog)")
        #expect(fromCatalog.stdout.contains("[format-width]"), "\(fromCatalog)")
    }

    /// A folder served in another's place (`en_GB.lproj` beside `en-GB.lproj`) is a SARIF
    /// result of its own rule, at the ignored file, and the rule is in the tool's list.
    @Test func sarifCarriesAShadowedFolder() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"a\" = \"Colour\";\n", to: "en-GB.lproj/Localizable.strings")
        try root.write("\"a\" = \"Color\";\n", to: "en_GB.lproj/Localizable.strings")
        let result = try run("lint", root.path, "--format", "sarif")
        #expect(result.status == 0, "\(result.stderr)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let shadowed = results.filter { $0["ruleId"] as? String == "shadowed-folder" }
        #expect(shadowed.count == 1, "\(results)")
        let message = (shadowed.first?["message"] as? [String: Any])?["text"] as? String ?? ""
        #expect(message.hasPrefix("en_GB.lproj is not served for the Localizable table: en-GB.lproj"))
        let uri =
            (((shadowed.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                "artifactLocation"] as? [String: Any])?["uri"] as? String ?? ""
        #expect(uri.hasSuffix("en_GB.lproj/Localizable.strings"))
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        #expect(rules.contains { $0["id"] as? String == "shadowed-folder" })
    }

    @Test func sarifValidatesAgainstTheSARIF210Schema() throws {
        let root = try project()
        let result = try run("lint", root.path, "--format", "sarif")
        #expect(result.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        let region =
            ((results[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                "region"] as? [String: Any]
        #expect(region?["startLine"] as? Int == 2 && region?["startColumn"] as? Int == 1)

        // The output is checked above in any clone; against the schema only where `../shared` is.
        try SarifSchemaCheck.validate(result.stdout)
    }
}
