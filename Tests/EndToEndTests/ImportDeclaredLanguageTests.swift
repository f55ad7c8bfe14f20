import Foundation
import TestSupport
import Testing

/// `--lang` only fills in the language of a file that declares none: a `.po` whose
/// `Language:` or an XLIFF whose `target-language` names another language is refused by
/// name and nothing is written (German went into all of iina's `fr.lproj` files, exit 0);
/// one that names the same language by another spelling (`de_DE` for `de`) is imported.
@Suite struct ImportDeclaredLanguageTests {
    /// `en`, `de` and `fr` tables of one key.
    static func project(in root: TemporaryDirectory) throws -> String {
        try root.write("\"save\" = \"Save\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"save\" = \"Sichern\";\n", to: "r/de.lproj/Localizable.strings")
        try root.write("\"save\" = \"Enregistrer\";\n", to: "r/fr.lproj/Localizable.strings")
        return root.path + "/r"
    }

    static func po(language: String?, in root: TemporaryDirectory) throws -> String {
        try root.write(
            "msgid \"\"\nmsgstr \"\"\n" + (language.map { "\"Language: \($0)\\n\"\n" } ?? "") + "\n"
                + "msgctxt \"en.lproj/Localizable.strings|save\"\nmsgid \"Save\"\nmsgstr \"Speichern\"\n",
            to: "de.po")
    }

    static func xliff(language: String, in root: TemporaryDirectory) throws -> String {
        try root.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="en.lproj/Localizable.strings" source-language="en" target-language="\(language)">
                <body><trans-unit id="save"><source>Save</source><target>Speichern</target></trans-unit></body>
              </file>
            </xliff>
            """, to: "de.xliff")
    }

    static func contents(_ resources: String, _ language: String) throws -> String {
        try String(contentsOfFile: "\(resources)/\(language).lproj/Localizable.strings", encoding: .utf8)
    }

    @Test(arguments: ["po", "xliff"])
    func aFileOfAnotherLanguageIsRefusedUnderLang(format: String) throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let file = try format == "po" ? Self.po(language: "de_DE", in: root) : Self.xliff(language: "de-DE", in: root)
        let result = try L10nctl.run("import", resources, file, "--lang", "fr")
        #expect(result.status != 0)
        #expect(result.stderr.contains("de-DE") && result.stderr.contains("--lang says fr"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing is written"), "\(result.stderr)")
        #expect(try Self.contents(resources, "fr") == "\"save\" = \"Enregistrer\";\n")
        #expect(try Self.contents(resources, "de") == "\"save\" = \"Sichern\";\n")
    }

    @Test(arguments: ["po", "xliff"])
    func aFileOfTheSameLanguageSpelledOtherwiseIsImported(format: String) throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let file = try format == "po" ? Self.po(language: "de_DE", in: root) : Self.xliff(language: "de-DE", in: root)
        let result = try L10nctl.run("import", resources, file, "--lang", "de")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.contents(resources, "de") == "\"save\" = \"Speichern\";\n")
    }

    @Test func langFillsInAFileThatDeclaresNone() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let result = try L10nctl.run("import", resources, try Self.po(language: nil, in: root), "--lang", "fr")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.contents(resources, "fr") == "\"save\" = \"Speichern\";\n")
    }
}
