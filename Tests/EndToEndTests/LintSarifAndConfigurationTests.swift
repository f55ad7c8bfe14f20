import Foundation
import TestSupport
import Testing

/// SARIF a code-scanning UI can track (fingerprints that survive line moves, rule help, no
/// location in a file that does not exist) and `.l10nd-lint`, through the built executable
/// (issue 23, item 6).
@Suite struct LintSarifAndConfigurationTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String]) throws -> ProcessOutput {
        // A debug build lints a whole corpus in about 15 s, more on a loaded machine.
        try ProcessRunner.run(l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 240)
    }

    func results(_ sarif: String) throws -> [[String: Any]] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        return try #require(run["results"] as? [[String: Any]])
    }

    func fingerprint(_ result: [String: Any]) -> String? {
        (result["partialFingerprints"] as? [String: String])?["l10ndFindingHash/v1"]
    }

    func uri(_ location: [String: Any]?) -> String? {
        ((location?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
    }

    @Test func fingerprintsSurviveLineMovesAndAnotherCheckout() throws {
        let first = try TemporaryDirectory()
        try first.write("\"a\" = \"Open the file\";\n\"b\" = \"%ld files\";\n", to: "en.lproj/Localizable.strings")
        try first.write("\"a\" = \"Open the file\";\n\"b\" = \"%d Dateien\";\n", to: "de.lproj/Localizable.strings")
        let before = try results(try run(["lint", first.path, "--format", "sarif"]).stdout)
        #expect(before.map { $0["ruleId"] as? String } == ["unchanged-from-source", "length-modifier"])
        #expect(before[0]["level"] as? String == "note")

        // The same findings, two lines further down, in another directory.
        let second = try TemporaryDirectory()
        try second.write("\"a\" = \"Open the file\";\n\"b\" = \"%ld files\";\n", to: "en.lproj/Localizable.strings")
        try second.write(
            "/* moved */\n\n\"b\" = \"%d Dateien\";\n\"a\" = \"Open the file\";\n", to: "de.lproj/Localizable.strings")
        let after = try results(try run(["lint", second.path, "--format", "sarif"]).stdout)
        let fingerprints = { (results: [[String: Any]]) in
            Dictionary(uniqueKeysWithValues: results.map { ($0["ruleId"] as! String, self.fingerprint($0)!) })
        }
        #expect(fingerprints(before) == fingerprints(after))
        #expect(Set(fingerprints(before).values).count == 2)
    }

    @Test func rulesCarryHelpAndNoLocationNamesAMissingFile() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n", to: "en.lproj/Menu.strings")
        try root.write("\"b\" = \"B\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"b\" = \"Be\";\n", to: "de.lproj/Localizable.strings")
        let output = try run(["lint", root.path, "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = try #require(
            (run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]])
        #expect(
            rules.allSatisfy { ($0["help"] as? [String: Any])?["text"] as? String != nil && $0["helpUri"] is String })
        let results = try results(output.stdout)
        // de.lproj/Menu.strings does not exist: the finding is placed at en's entry.
        let missing = try #require(results.first { $0["ruleId"] as? String == "untranslated" })
        let location = (missing["locations"] as? [[String: Any]])?.first
        #expect(uri(location)?.hasSuffix("en.lproj/Menu.strings") == true, "\(missing)")
        for result in results {
            for location in (result["locations"] as? [[String: Any]] ?? [])
                + (result["relatedLocations"] as? [[String: Any]] ?? [])
            {
                let path = try #require(uri(location).flatMap { URL(string: $0)?.path })
                #expect(FileManager.default.fileExists(atPath: path), "\(path)")
            }
        }
        try SarifSchemaCheck.validate(output.stdout)
    }

    @Test func theSARIFOfBothCorporaValidates() throws {
        for corpus in ["corpus/iina", "corpus/mastodon-ios"] {
            guard let path = PackagePaths.shared(corpus) else {
                print("skipped: ../shared/\(corpus) is absent")
                return
            }
            let output = try run(["lint", path, "--format", "sarif"])
            let results = try results(output.stdout)
            #expect(Set(results.compactMap(fingerprint)).count == results.count)
            try SarifSchemaCheck.validate(output.stdout)
        }
    }

    /// On real files: a line inserted at the top of every table of a copy of Mastodon's
    /// resources moves most findings a line down and changes no fingerprint.
    @Test func aLineInsertedAboveCorpusFindingsChangesNoFingerprint() throws {
        let resources = "corpus/mastodon-ios/MastodonSDK/Sources/MastodonLocalization/Resources"
        guard let source = PackagePaths.shared(resources) else {
            print("skipped: ../shared/\(resources) is absent")
            return
        }
        let root = try TemporaryDirectory()
        let copy = root.path + "/Resources"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        func lines(_ results: [[String: Any]]) throws -> [String: Int] {
            var byFingerprint: [String: Int] = [:]
            for result in results {
                let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
                byFingerprint[try #require(fingerprint(result))] =
                    (location?["region"] as? [String: Any])?["startLine"]
                    as? Int
            }
            return byFingerprint
        }
        let before = try lines(try results(try run(["lint", copy, "--format", "sarif"]).stdout))
        let files = try FileManager.default.subpathsOfDirectory(atPath: copy).filter { $0.hasSuffix(".strings") }
        for file in files {
            let path = copy + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try ("/* inserted */\n" + text).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let after = try lines(try results(try run(["lint", copy, "--format", "sarif"]).stdout))
        #expect(before.count > 1000, "\(before.count) findings")
        #expect(Set(before.keys) == Set(after.keys))
        let moved = before.keys.filter { before[$0].map { $0 + 1 } == after[$0] }
        #expect(moved.count > before.count / 2, "\(moved.count) of \(before.count) moved a line")
    }

    @Test func aProjectsLintFileSetsSeveritiesAndTheCommandLineWins() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"a\" = \"Open the file\";\n\"b\" = \"one two\";\n", to: "Resources/en.lproj/Localizable.strings")
        try root.write(
            "\"a\" = \"Open the file\";\n\"b\" = \"eins  zwei\";\n", to: "Resources/de.lproj/Localizable.strings")
        try root.write(
            "# project lint settings\nunchanged-from-source = off\ndouble-space = error   # house style\n",
            to: ".l10nd-lint")
        let found = try run(["lint", root.path + "/Resources"])
        #expect(
            found.status == 1 && found.stdout.contains("error: \"b\": two spaces")
                && !found.stdout.contains("unchanged"), "\(found)")
        let overridden = try run(["lint", root.path + "/Resources", "--severity", "double-space=note"])
        #expect(overridden.status == 0 && overridden.stdout.contains("note: \"b\""), "\(overridden)")
        #expect(overridden.stderr == "0 errors, 0 warnings, 1 note\n", "\(overridden)")

        let other = try root.write("double-space = loud\n", to: "other.conf")
        let bad = try run(["lint", root.path + "/Resources", "--config", other])
        #expect(
            bad.status == 1 && bad.stderr.contains("other.conf:1: double-space= takes error, warning, note or off"),
            "\(bad)")
    }
}
