import Foundation
import TestSupport
import Testing

/// `msgmerge` with another language's export as the template copies that export's
/// extracted comments, `#. l10nd-base:` among them: each unit then carries the French
/// values' hash into a German file. Export names the language beside the hash, and import
/// does not take another language's base for its own (which made every German edit a false
/// conflict): it says how many units it could not check, and writes them.
@Suite struct ImportForeignBaseTests {
    static let hasGettext = FileManager.default.isExecutableFile(atPath: "/usr/bin/msgmerge")

    @Test(.enabled(if: hasGettext, "gettext (msgmerge) is not installed: skipped"))
    func anotherLanguagesBaseIsNotTakenForThisOnes() throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", to: "r/en.lproj/Localizable.strings")
        let german = try root.write(
            "\"save\" = \"Sichern\";\n\"quit\" = \"Ende\";\n", to: "r/de.lproj/Localizable.strings")
        try root.write("\"save\" = \"Enregistrer\";\n\"quit\" = \"Quitter\";\n", to: "r/fr.lproj/Localizable.strings")
        let (de, fr, merged) = (root.path + "/de.po", root.path + "/fr.po", root.path + "/merged.po")
        for (language, file) in [("de", de), ("fr", fr)] {
            #expect(try L10nctl.run("export", root.path + "/r", "--lang", language, "--output", file).status == 0)
        }
        #expect(try String(contentsOfFile: de, encoding: .utf8).contains("#. l10nd-base: de "))
        // The translator edits save, then merges with the French export as the template.
        let edited = try String(contentsOfFile: de, encoding: .utf8).replacing("\"Sichern\"", with: "\"Speichern\"")
        try edited.write(toFile: de, atomically: true, encoding: .utf8)
        let merge = try ProcessRunner.run("/usr/bin/msgmerge", ["--quiet", "-o", merged, de, fr])
        #expect(merge.status == 0, "\(merge.stderr)")
        let mergedText = try String(contentsOfFile: merged, encoding: .utf8)
        #expect(
            mergedText.contains("#. l10nd-base: fr ") && !mergedText.contains("#. l10nd-base: de "), "\(mergedText)")

        let result = try L10nctl.run("import", root.path + "/r", merged)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("conflict"), "\(result.stderr)")
        #expect(
            result.stderr.contains("l10nctl: warning: 2 units of \(merged) carry the export base of fr, not of de"),
            "\(result.stderr)")
        #expect(
            try String(contentsOfFile: german, encoding: .utf8) == "\"save\" = \"Speichern\";\n\"quit\" = \"Ende\";\n")
    }

    /// A base written before export named its language (the hash alone) is still the file's
    /// own language's: a stale one still stops the import.
    @Test func aBaseWithoutALanguageIsStillChecked() throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save\";\n", to: "r/en.lproj/Localizable.strings")
        let german = try root.write("\"save\" = \"Sichern\";\n", to: "r/de.lproj/Localizable.strings")
        let file = root.path + "/de.po"
        #expect(try L10nctl.run("export", root.path + "/r", "--lang", "de", "--output", file).status == 0)
        let old = try String(contentsOfFile: file, encoding: .utf8).replacing(
            "#. l10nd-base: de ", with: "#. l10nd-base: "
        )
        .replacing("\"Sichern\"", with: "\"Speichern\"")
        try old.write(toFile: file, atomically: true, encoding: .utf8)
        try "\"save\" = \"Sicher\";\n".write(toFile: german, atomically: true, encoding: .utf8)
        let result = try L10nctl.run("import", root.path + "/r", file)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(#"unit "save" changed in "#), "\(result.stderr)")
    }
}
