import Foundation
import TestSupport
import Testing

/// The built `l10nctl`, run as a user runs it.
@Suite struct L10nctlOfflineTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
    }

    @Test func getPrintsTheValue() throws {
        let result = try run("get", "多言語化", "--lang", "en", "--resources", PackagePaths.exampleResources)
        #expect(result.status == 0)
        #expect(result.stdout == "Multilingualization\n")
        let japanese = try run("get", "多言語化", "--lang", "ja", "--resources", PackagePaths.exampleResources)
        #expect(japanese.stdout == "多言語化\n")
    }

    /// `--count` takes decimals: 1.5 is `one` in French, `other` in English; a non-number
    /// is a usage error.
    @Test func getCountsMayBeDecimals() throws {
        let resources = PackagePaths.exampleResources
        #expect(
            try run("get", "%.1f hours", "--lang", "fr", "--count", "1.5", "--resources", resources).stdout
                == "1.5 heure\n")
        #expect(
            try run("get", "%.1f hours", "--lang", "en", "--count", "1.5", "--resources", resources).stdout
                == "1.5 hours\n")
        let bad = try run("get", "%.1f hours", "--lang", "en", "--count", "1,5", "--resources", resources)
        #expect(bad.status == 2 && bad.stderr.contains("--count takes a number such as 21 or 1.5, not '1,5'"))
    }

    /// A catalog's top-level plural of `%@ has %lld items` selects by argument 2, the first
    /// numeric one: `--count 0 --count 1` picks German `one` by the 1 (the attack: by the 0).
    @Test func getSelectsATopLevelPluralByTheFirstNumericArgument() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Localizable.xcstrings", PluralArgumentsDaemonTests.stringFirstPluralCatalog)
        let one = try run(
            "get", "%@ has %lld items", "--lang", "de", "--count", "0", "--count", "1", "--resources", directory.path)
        #expect(one.stdout.hasPrefix("Ein Element bei"), "\(one.stdout)\(one.stderr)")
        let other = try run(
            "get", "%@ has %lld items", "--lang", "de", "--count", "1", "--count", "3", "--resources", directory.path)
        #expect(other.stdout.hasPrefix("3 Elemente bei"), "\(other.stdout)\(other.stderr)")
    }

    @Test func getFallsBackAndSaysWhoServedInJSON() throws {
        let result = try run("get", "保存", "--lang=ja", "--resources", PackagePaths.exampleResources, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["value"] as? String == "Save")
        #expect(object["lang"] as? String == "Base")
        #expect(object["found"] as? Bool == true)
    }

    @Test func getReadsLocaleAndResourcesFromTheEnvironment() throws {
        let result = try run(
            "get", "多言語化", environment: ["L10N_RESOURCES": PackagePaths.exampleResources, "LANG": "de_DE.UTF-8"])
        #expect(result.stdout == "Mehrsprachigkeit\n")
    }

    @Test func getOtherTable() throws {
        let result = try run(
            "get", "title", "--lang", "ja", "--table", "Settings", "--resources", PackagePaths.exampleResources)
        #expect(result.stdout == "環境設定\n")
    }

    @Test func dumpPrintsExactlyOneJSONObject() throws {
        let result = try run("dump", PackagePaths.exampleResources + "/ja.lproj/Localizable.strings")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
        #expect(object["多言語化"] == "多言語化")
        #expect(object.count == 5)
    }

    @Test func dumpOfABrokenFileIsALocatedError() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("\"a\" = \"b\";\n\"c\" = \"d\"\n", to: "x.strings")
        let result = try run("dump", path)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("l10nctl: error: \(path):"))
        #expect(result.stdout.isEmpty)
    }

    /// A FIFO in place of a file is refused at once instead of hanging the dump on its read.
    @Test func dumpOfAFIFOIsAnErrorNotAHang() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/x.strings"
        try #require(mkfifo(path, 0o600) == 0)
        let result = try run("dump", path)
        #expect(result.status == 1)
        #expect(result.stderr == "l10nctl: error: \(path):1:1: cannot be read: it is not a regular file\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func lintReportsEachProblemWithItsPlace() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"greeting\" = \"Hello\";\n\"count\" = \"%@ files\";\n\"bye\" = \"Bye\";\n",
            to: "en.lproj/Localizable.strings")
        try root.write(
            "\"greeting\" = \"Hallo\";\n\"count\" = \"%d Dateien\";\n\"greeting\" = \"Servus\";\n",
            to: "de.lproj/Localizable.strings")
        try root.write("\"greeting\" = \"Bonjour\"\n", to: "fr.lproj/Localizable.strings")
        let result = try run("lint", root.path)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let de = root.path + "/de.lproj/Localizable.strings"
        let fr = root.path + "/fr.lproj/Localizable.strings"
        #expect(lines.contains { $0.hasPrefix("\(de):2:1: error: \"count\": format specifiers differ") })
        #expect(lines.contains { $0.hasPrefix("\(de):3:1: warning: duplicate key \"greeting\" (first at 1:1)") })
        #expect(lines.contains { $0.hasPrefix("\(de):1:1: warning: missing key \"bye\"") })
        #expect(lines.contains { $0.hasPrefix("\(fr):1:") && $0.contains(": error: ") })
        #expect(result.stderr.contains("2 errors"))
    }

    /// A file coverage cannot read is named on stderr as lint names it, exit 1 as lint's, its
    /// keys counted untranslated; a language with only broken files is still listed.
    @Test func coverageNamesTheFilesItCannotReadAndFails() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\"; \"b\" = \"B\";\n", to: "en.lproj/L.strings")
        try root.write("\"x\" = \"X\"; \"y\" = \"Y\";\n", to: "en.lproj/M.strings")
        let german = try root.write("\"a\" = \"A\"; \"b\" = = \"B\";\n", to: "de.lproj/L.strings")
        try root.write("\"x\" = \"X\"; \"y\" = \"Y\";\n", to: "de.lproj/M.strings")
        let french = try root.write("\"a\" = = \"A\";\n", to: "fr.lproj/L.strings")

        let result = try run("coverage", root.path)
        #expect(result.status == 1)
        // Each row's count (the reference line's name); de's two copies are shown apart.
        let rows = result.stdout.split(separator: "\n").map { line in
            line.split(separator: " ").last { $0.contains("/") }.map(String.init)
                ?? line.split(separator: " ").last.map(String.init)
        }
        #expect(rows == ["en", "2/4", "0/4"], "\(result.stdout)")
        #expect(result.stdout.contains("2/4  2 same as source\n"), "\(result.stdout)")
        let lint = try run("lint", root.path)
        #expect(lint.status == 1)
        for file in [german, french] {
            let lintLine = try #require(lint.stdout.split(separator: "\n").first { $0.hasPrefix(file + ":") })
            // Lint's line without its rule tag.
            let expected = String(lintLine.prefix { $0 != "[" }.dropLast())
            #expect(result.stderr.split(separator: "\n").contains { $0 == expected }, "\(result.stderr)")
        }
        #expect(result.stderr.hasSuffix("2 errors: their keys count as untranslated\n"))
        let json = try run("coverage", root.path, "--format", "json")
        #expect(json.status == 1 && json.stdout.contains("\"lang\":\"fr\""))
        try FileManager.default.removeItem(atPath: german)
        try FileManager.default.removeItem(atPath: french)
        #expect(try run("coverage", root.path).status == 0)
    }

    /// Entries left out of a file that is served (a non-string value, the rest after a
    /// comment never closed) are warnings in coverage as in lint: named so, exit 0 as lint's.
    @Test func coverageGivesLeftOutEntriesLintsSeverity() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n", to: "en.lproj/L.strings")
        let german = try root.write(
            "\"a\" = (\"A\");\n\"b\" = \"B\";\n/* never closed\n\"c\" = \"C\";\n", to: "de.lproj/L.strings")

        let lint = try run("lint", german)
        #expect(lint.status == 0, "\(lint.stdout)")
        let result = try run("coverage", root.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(": error: "), "\(result.stderr)")
        for rule in ["non-string-value", "ignored-rest"] {
            let lintLine = try #require(lint.stdout.split(separator: "\n").first { $0.hasSuffix("[\(rule)]") })
            #expect(lintLine.contains(": warning: "))
            let expected = String(lintLine.prefix { $0 != "[" }.dropLast())
            #expect(result.stderr.split(separator: "\n").contains { $0 == expected }, "\(result.stderr)")
        }
        #expect(result.stderr.hasSuffix("2 warnings: their keys count as untranslated\n"), "\(result.stderr)")
    }

    /// Coverage takes lint's settings for what it names: `--severity` and the project's
    /// `.l10nd-lint` give a left-out entry the severity lint gives it, and the exit code
    /// follows, as lint's; the counts stay what is served.
    @Test func coverageTakesLintsSeverities() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n", to: "en.lproj/L.strings")
        let german = try root.write(
            "\"a\" = (\"A\");\n\"b\" = \"B\";\n/* never closed\n\"c\" = \"C\";\n", to: "de.lproj/L.strings")
        let plain = try run("coverage", root.path)

        let strict = try run("coverage", root.path, "--severity", "ignored-rest=error")
        let lint = try run("lint", root.path, "--severity", "ignored-rest=error")
        #expect(strict.status == 1 && lint.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("\(german):3:1: error: "), "\(strict.stderr)")
        #expect(strict.stderr.hasSuffix("1 error, 1 warning: their keys count as untranslated\n"), "\(strict.stderr)")
        #expect(strict.stdout == plain.stdout)

        try root.write("non-string-value = off\nignored-rest = off\n", to: ".l10nd-lint")
        let quiet = try run("coverage", root.path)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout == plain.stdout)
        // The command line wins over the file, as for lint.
        let named = try run("coverage", root.path, "--severity", "non-string-value=warning")
        #expect(named.stderr.hasSuffix("1 warning: their keys count as untranslated\n"), "\(named.stderr)")
    }

    @Test func lintOfTheExamplesHasNoErrors() throws {
        let result = try run("lint", PackagePaths.exampleResources)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stdout.contains(": error: "))
    }

    @Test(arguments: [
        ["get"], ["get", "a", "b", "--resources", "/x"], ["frobnicate"], ["get", "k", "--bogus"],
        ["get", "k", "--lang", "../x", "--resources", "/x"], ["lint"], ["dump"], ["get", "k", "--lang"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try ProcessRunner.run(l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("l10nctl: error: "))
    }

    @Test(arguments: ["get", "dump", "lint"])
    func everyCommandHasHelp(command: String) throws {
        let result = try run(command, "--help")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: l10nctl \(command)"))
        #expect(try run("help", command).stdout == result.stdout)
    }
}
