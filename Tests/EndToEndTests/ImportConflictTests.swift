import Foundation
import LocalizationCore
import TestSupport
import Testing

/// No silent overwrite (issue 23 item 3): export records a hash of each unit's value; an
/// import that would replace a value changed in the files since then stops and lists the
/// conflict (`--force` takes the file's), and a value the translator left as exported does
/// not revert a newer edit.
@Suite struct ImportConflictTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: String...) throws -> ProcessOutput {
        try ProcessRunner.run(l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
    }

    @Test(arguments: ["xliff", "po"])
    func aStaleExportCannotOverwriteNewerEdits(format: String) throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n\"open\" = \"Open\";\n", to: "r/en.lproj/Localizable.strings")
        let german = try root.write(
            "\"save\" = \"Sichern\";\n\"quit\" = \"Ende\";\n\"open\" = \"Auf\";\n", to: "r/de.lproj/Localizable.strings"
        )
        let file = root.path + "/de." + format
        #expect(try run("export", root.path + "/r", "--lang", "de", "--output", file).status == 0)
        // The translator works on the export: changes save and open, leaves quit.
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let edited = exported.replacing("Sichern", with: "Speichern").replacing("Auf\"", with: "Öffnen\"")
            .replacing(">Auf<", with: ">Öffnen<")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        // Meanwhile the files change save and quit.
        let newer = "\"save\" = \"Sicher\";\n\"quit\" = \"Beenden\";\n\"open\" = \"Auf\";\n"
        try newer.write(toFile: german, atomically: true, encoding: .utf8)

        let stopped = try run("import", root.path + "/r", file)
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(
            stopped.stderr.contains(
                #"l10nctl: conflict: en.lproj/Localizable.strings: unit "save" changed in "#), "\(stopped.stderr)")
        #expect(stopped.stderr.contains(#"(now "Sicher"); the import would replace it with "Speichern""#))
        #expect(!stopped.stderr.contains(#"unit "quit""#) && !stopped.stderr.contains(#"unit "open""#))
        #expect(try String(contentsOfFile: german, encoding: .utf8) == newer, "nothing is written")

        let forced = try run("import", root.path + "/r", file, "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        // The translator's save and open; quit, which only the files changed, stays theirs.
        #expect(
            try String(contentsOfFile: german, encoding: .utf8)
                == "\"save\" = \"Speichern\";\n\"quit\" = \"Beenden\";\n\"open\" = \"Öffnen\";\n")
        #expect(
            forced.stderr.contains("1 value changed in the files since the export and untouched"), "\(forced.stderr)")
    }
}
