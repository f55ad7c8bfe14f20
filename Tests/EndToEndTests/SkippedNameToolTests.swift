import Foundation
import TestSupport
import Testing

/// Folders skipped for their names (`qaa-x-26.lproj`, `de_DE-typo.lproj`, a name that is not
/// UTF-8) were said by the daemon's log and `status` alone: `l10nctl lint`, `coverage`,
/// `report` and `l10nd --check-config` exited 0 without a word, so a translator who saved
/// German in `de_DE-typo.lproj` never learnt that none of it is served. The built
/// executables over real folders, one made with `printf` for its byte 0xFF.
@Suite struct SkippedNameToolTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    /// `en.lproj`, `de.lproj`, and the three skipped folders, each holding a table.
    static func tree() throws -> TemporaryDirectory {
        let resources = try TemporaryDirectory(prefix: "skipped-names")
        try resources.write("\"k\" = \"Open\";\n", to: "en.lproj/Localizable.strings")
        try resources.write("\"k\" = \"Öffnen\";\n", to: "de.lproj/Localizable.strings")
        try resources.write("\"k\" = \"Privat\";\n", to: "qaa-x-26.lproj/Localizable.strings")
        try resources.write("\"k\" = \"Öffnen\";\n", to: "de_DE-typo.lproj/Localizable.strings")
        try OddNameDaemonTests.makeRawDirectory("fr\\377.lproj", in: resources)
        return resources
    }

    func run(_ arguments: [String]) throws -> ProcessOutput {
        // No daemon is asked: `report` asks the default socket only, here in an empty directory.
        let runtime = try TemporaryDirectory(prefix: "skipped-runtime")
        return try ProcessRunner.run(
            l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path], timeout: 120)
    }

    /// What each skipped entry is reported as: its message's start, where it is reported.
    static func expected(in root: String) -> [String: String] {
        [
            "\(root)/qaa-x-26.lproj: qaa-x-26 is not a language tag l10nd serves": "\(root)/qaa-x-26.lproj",
            "\(root)/de_DE-typo.lproj: de_DE-typo is not a language tag l10nd serves": "\(root)/de_DE-typo.lproj",
            "\(root)/fr\\xFF.lproj: the directory's name is not UTF-8": root,
        ]
    }

    @Test func lintReportsEachAsAnErrorInTextJSONAndSARIF() throws {
        let resources = try Self.tree()
        let text = try run(["lint", resources.path])
        #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
        for (message, place) in Self.expected(in: resources.path) {
            #expect(
                text.stdout.contains("\(place):1:1: error: \(message)") && text.stdout.contains("[skipped-name]"),
                "\(text.stdout)")
        }
        #expect(!text.stdout.contains("\u{FFFD}"), "\(text.stdout)")

        let json = try run(["lint", resources.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = (object["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "skipped-name" }
        let found = Dictionary(
            uniqueKeysWithValues: findings.map {
                (
                    ($0["message"] as? String ?? "").components(separatedBy: ", so").first ?? "",
                    $0["file"] as? String ?? ""
                )
            })
        let expected = Self.expected(in: resources.path)
        #expect(found.count == 3, "\(findings)")
        for (message, place) in expected {
            #expect(found.contains { message.hasPrefix($0.key) && $0.value == place }, "\(found)")
        }
        #expect(findings.allSatisfy { $0["severity"] as? String == "error" }, "\(findings)")

        let sarif = try run(["lint", resources.path, "--format", "sarif"])
        try SarifSchemaCheck.validate(sarif.stdout)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let skipped = results.filter { $0["ruleId"] as? String == "skipped-name" }
        #expect(skipped.count == 3, "\(results)")
        let uris = skipped.compactMap {
            (((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
                as? [String: Any])?["uri"] as? String)
        }
        // Each at the folder, or the one holding it: places that exist.
        #expect(uris.count == 3, "\(skipped)")
        for uri in uris {
            let path = try #require(URL(string: uri)?.path)
            #expect(FileManager.default.fileExists(atPath: path), "\(uri)")
        }
    }

    @Test func lintSeverityIsConfigurableOnTheCommandLineAndInTheFile() throws {
        let resources = try Self.tree()
        let warned = try run(["lint", resources.path, "--severity", "skipped-name=warning"])
        #expect(warned.status == 0, "\(warned.stdout)")
        #expect(
            warned.stdout.contains("warning: \(resources.path)/de_DE-typo.lproj: de_DE-typo is not"), "\(warned.stdout)"
        )
        try resources.write("skipped-name = off\n", to: ".l10nd-lint")
        let off = try run(["lint", resources.path])
        #expect(!off.stdout.contains("skipped-name"), "\(off.stdout)")
    }

    @Test func coverageListsThemWithTheReasonAndFails() throws {
        let resources = try Self.tree()
        let table = try run(["coverage", resources.path])
        #expect(table.status == 1, "\(table.stdout)\(table.stderr)")
        for message in Self.expected(in: resources.path).keys {
            #expect(table.stdout.contains("skipped: \(message)"), "\(table.stdout)")
            #expect(table.stderr.contains(message), "\(table.stderr)")
        }
        #expect(table.stderr.contains("3 errors: skipped for their names, counted nowhere"), "\(table.stderr)")
        #expect(!table.stdout.contains("\u{FFFD}"), "\(table.stdout)")

        let json = try run(["coverage", resources.path, "--format", "json", "--severity", "skipped-name=warning"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let skipped = try #require(object["skipped"] as? [[String: Any]])
        #expect(
            Set(skipped.map { "\($0["reason"]!) \($0["path"]!)" }) == [
                "not_a_language \(resources.path)/qaa-x-26.lproj", "not_a_language \(resources.path)/de_DE-typo.lproj",
                "name_not_utf8 \(resources.path)/fr\\xFF.lproj",
            ], "\(skipped)")
    }

    @Test func theReportListsThemInItsCoverageAndLint() throws {
        let resources = try Self.tree()
        let output = try run(["report", "--html", "-", resources.path])
        #expect(output.status == 0, "\(output.stderr)")
        let coverage = try #require(
            output.stdout.components(separatedBy: "<section id=\"coverage\">").last?.components(
                separatedBy: "</section>"
            )
            .first?.replacingOccurrences(of: "&#39;", with: "'"))
        for message in Self.expected(in: resources.path).keys {
            #expect(coverage.contains(message), "\(coverage)")
        }
        #expect(output.stdout.contains("skipped-name"), "the lint section names the rule")
    }

    /// Export and import read the tree too: German in `de_DE-typo.lproj` is neither exported
    /// nor written to, said on stderr; the export itself succeeds.
    @Test func exportWarnsOfEach() throws {
        let resources = try Self.tree()
        let output = try run(["export", resources.path, "--lang", "de", "--format", "po"])
        #expect(output.status == 0, "\(output.stderr)")
        for message in Self.expected(in: resources.path).keys {
            #expect(output.stderr.contains("l10nctl: warning: \(message)"), "\(output.stderr)")
        }
        #expect(output.stderr.contains("its files are neither exported nor imported into"), "\(output.stderr)")
        #expect(output.stdout.contains("msgstr \"Öffnen\""), "\(output.stdout)")
    }

    @Test func checkConfigListsThemAndExitsOne() throws {
        let resources = try Self.tree()
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nd"), ["--check-config", "--resources", resources.path], timeout: 60)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        for message in Self.expected(in: resources.path).keys {
            #expect(output.stderr.contains("l10nd: warning: \(message)"), "\(output.stderr)")
        }
        #expect(output.stdout.contains("3 problems (see above)"), "\(output.stdout)")
        #expect(!output.stderr.contains("\u{FFFD}"), "\(output.stderr)")
    }

    /// The shared corpora have no folder skipped for its name: the rule finds nothing there.
    /// (`coverage` reads the one survey lint does, in a fraction of lint's time on a corpus.)
    @Test func theCorporaHaveNone() throws {
        for name in ["corpus/iina", "corpus/mastodon-ios"] {
            guard let corpus = PackagePaths.shared(name) else {
                print("skipped: \(name) is absent (set L10ND_SHARED)")
                continue
            }
            let runtime = try TemporaryDirectory(prefix: "skipped-runtime")
            let output = try ProcessRunner.run(
                l10nctl, ["coverage", corpus, "--format", "json"],
                environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime.path], timeout: 300)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            #expect((object["languages"] as? [Any])?.count ?? 0 > 10, "\(corpus): not read")
            #expect((object["skipped"] as? [Any])?.isEmpty == true, "\(corpus): \(object["skipped"] ?? "none")")
            #expect(!output.stderr.contains("skipped-name"), "\(output.stderr)")
        }
    }
}
