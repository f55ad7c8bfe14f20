import Foundation
import TestSupport
import Testing

/// A `--development-language` the project has no table in is an error naming it and the
/// languages that have tables, in lint, coverage and report alike (an outside tester's find:
/// every language showed 100.0% 0/0, exit 0); a tag not written as BCP 47 is refused as l10nd
/// refuses it in its configuration.
@Suite struct DevelopmentLanguageAbsentTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, arguments,
            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": directory.path + "/none"])
    }

    @Test func aDevelopmentLanguageWithNoTablesIsAnError() throws {
        let root = try TemporaryDirectory(prefix: "l10nctl-devlang")
        try root.write("\"a\" = \"Open\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"a\" = \"Ouvrir\";\n", to: "r/fr.lproj/Localizable.strings")
        let resources = root.path + "/r"
        let message =
            "l10nctl: error: the development language de has no table here (no de.lproj, Base.lproj or String Catalog); "
            + "the languages with tables are en, fr: give --development-language the one the source strings are in\n"
        for command in [
            ["lint", resources], ["coverage", resources], ["report", "--html", root.path + "/r.html", resources],
        ] {
            let output = try run(command + ["--development-language", "de"], in: root)
            #expect(output.status == 1, "\(command[0]): \(output)")
            #expect(output.stderr == message, "\(command[0]): \(output.stderr)")
            // The same tree with its real development language is measured as before.
            let fine = try run(command, in: root)
            #expect(fine.status == 0, "\(command[0]): \(fine)")
        }
        // Base (a storyboard's folder too) is the development language's text: no error.
        try root.makeDirectory("r/Base.lproj")
        #expect(try run(["coverage", resources, "--development-language", "de"], in: root).status == 0)
        // A single file linted alone is part of a project: nothing to say about the rest.
        let file = try run(
            ["lint", resources + "/fr.lproj/Localizable.strings", "--development-language", "de"], in: root)
        #expect(file.status == 0, "\(file)")
    }

    @Test func aDevelopmentLanguageNotWrittenAsBCP47IsRefused() throws {
        let root = try TemporaryDirectory(prefix: "l10nctl-devlang-written")
        for (written, reason) in [
            ("english", "it is the legacy .lproj name of en: write en"), ("en_US", "write en-US"),
        ] {
            let output = try run(
                ["coverage", PackagePaths.exampleResources, "--development-language", written], in: root)
            #expect(output.status == 2, "\(output)")
            #expect(output.stderr.contains("--development-language: "), "\(output.stderr)")
            #expect(output.stderr.contains(reason), "\(output.stderr)")
        }
    }
}
