import Foundation
import LocalizationCore
import TestSupport
import Testing

/// `l10nctl import` of the files translation tools really write (issue 23 item 1): each
/// either lands exactly where it belongs or the import fails naming what it could not place.
/// The fixtures are written by hand in the shapes the tools produce (each says which);
/// `translateToolkitRoundTrip` runs translate-toolkit itself where it is installed.
@Suite struct ImportToolShapesTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: arguments)
    }

    static func table(_ path: String) throws -> [String: String] {
        try StringsParser.parse(Array(try #require(FileManager.default.contents(atPath: path)))).table
    }

    /// A project: `en` and `de` tables, `Open` twice in `en` under two keys.
    static func project(in root: TemporaryDirectory, german: String = "\"save\" = \"Sichern\";\n") throws -> String {
        try root.write(
            "\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n\"open.file\" = \"Open\";\n\"open.url\" = \"Open\";\n",
            to: "r/en.lproj/Localizable.strings")
        try root.write(german, to: "r/de.lproj/Localizable.strings")
        return root.path + "/r"
    }

    /// `de.xliff` with one `<file original>` of `units`.
    static func xliff(in root: TemporaryDirectory, original: String, units: String) throws -> String {
        try root.write(ImportProject.xliff(units, original: original), to: "de.xliff")
    }

    /// Crowdin and Lokalise write `<target><![CDATA[…]]></target>`; Okapi splits text and CDATA.
    @Test func cdataTargetsAreImportedWhole() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let xliff = try Self.xliff(
            in: root, original: "en.lproj/Localizable.strings",
            units: #"<trans-unit id="save"><source>Save</source><target><![CDATA[Speichern]]></target></trans-unit>"#
                + #"<trans-unit id="quit"><source>Quit</source><target>Be<![CDATA[enden & <raus>]]></target></trans-unit>"#
        )
        let result = try run("import", resources, xliff)
        #expect(result.status == 0, "\(result.stderr)")
        let german = try Self.table(resources + "/de.lproj/Localizable.strings")
        #expect(german["save"] == "Speichern" && german["quit"] == "Beenden & <raus>")
    }

    /// A `.po` saved on Windows (BOM, CRLF) and ending without a newline, as `xliff2po`
    /// leaves it: read like any other, its `Language` found.
    @Test func aCRLFPOWithBOMAndNoFinalNewlineIsImported() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let lines = [
            "msgid \"\"", "msgstr \"\"", "\"Language: de\\n\"", "", "msgctxt \"en.lproj/Localizable.strings|quit\"",
            "msgid \"Quit\"", "msgstr \"Beenden\"",
        ]
        let po = try root.write(Data(("\u{FEFF}" + lines.joined(separator: "\r\n")).utf8), to: "de.po")
        let result = try run("import", resources, po)
        #expect(result.status == 0 && result.stderr.contains("1 value changed"), "\(result.stderr)")
        #expect(try Self.table(resources + "/de.lproj/Localizable.strings")["quit"] == "Beenden")
    }

    /// translate-toolkit's `xliff2po` writes no `msgctxt` (the XLIFF id goes to `#:`), and
    /// `l10nctl missing --format po` none either: a message is placed by its source text when
    /// one unit has it, and one that several units have is an error naming it.
    @Test func messagesWithoutContextArePlacedBySourceOrRefusedByName() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let po = try root.write(
            """
            msgid ""
            msgstr ""
            "Language: de\\n"

            msgid "Quit"
            msgstr "Beenden"

            msgid "Open"
            msgstr "Öffnen"

            #: open.url
            msgid "Open"
            msgstr "Aufrufen"

            msgid "Nowhere"
            msgstr "Nirgends"
            """, to: "de.po")
        let result = try run("import", resources, po)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(#"msgid "Open" (line 8): 2 units have this source text"#), "\(result.stderr)")
        #expect(result.stderr.contains(#"msgid "Nowhere" (line 15): no unit has this source text"#), "\(result.stderr)")
        let german = try Self.table(resources + "/de.lproj/Localizable.strings")
        #expect(german == ["save": "Sichern", "quit": "Beenden", "open.url": "Aufrufen"])
    }

    /// `l10nctl missing --format po`'s skeleton: the key as `msgid`, the table as `msgctxt`
    /// (the shape `MissingStringsSkeleton.renderPO` writes), filled in by a translator.
    @Test func theMissingKeysSkeletonIsImportedByKeyAndTable() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        try root.write("\"quit\" = \"Quit\";\n", to: "r/en.lproj/Menu.strings")
        let po = try root.write(
            """
            # Keys looked up in de that de lacks. Fill in each msgstr.
            msgid ""
            msgstr ""
            "Language: de\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"

            #. asked 3 times; answered by en
            msgctxt "Localizable"
            msgid "quit"
            msgstr "Beenden"

            """, to: "missing.po")
        let result = try run("import", resources, po)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.table(resources + "/de.lproj/Localizable.strings")["quit"] == "Beenden")
        #expect(!FileManager.default.fileExists(atPath: resources + "/de.lproj/Menu.strings"))
    }

    /// Poedit's, `msginit`'s and Crowdin's French header has two forms, `(n > 1)`:
    /// `msgstr[1]` is `other` (and `many`, the round millions), not `many` alone.
    @Test func thePluralFormsHeaderPlacesEachForm() throws {
        let root = try TemporaryDirectory()
        try root.write("\"x\" = \"x\";\n", to: "r/en.lproj/Localizable.strings")
        let dict = { (one: String, other: String) in
            StringsDictFixture.file([("files", [("one", one), ("other", other)])])
        }
        try root.write(dict("%d file", "%d files"), to: "r/en.lproj/Localizable.stringsdict")
        let french = try root.write(dict("%d fichier", "old"), to: "r/fr.lproj/Localizable.stringsdict")
        let po = try root.write(
            """
            msgid ""
            msgstr ""
            "Language: fr\\n"
            "Plural-Forms: nplurals=2; plural=(n > 1);\\n"

            msgctxt "en.lproj/Localizable.stringsdict|/files:dict/n:dict"
            msgid "%d file"
            msgid_plural "%d files"
            msgstr[0] "%d fichier"
            msgstr[1] "%d fichiers"

            """, to: "fr.po")
        let result = try run("import", root.path + "/r", po)
        #expect(result.status == 0, "\(result.stderr)")
        let forms = try StringsDictReader.parse(Array(try #require(FileManager.default.contents(atPath: french))))[
            "files"]?.plural?.variables["n"]?.forms
        #expect(
            forms == [.one: "%d fichier", .many: "%d fichiers", .other: "%d fichiers"], "\(String(describing: forms))")
    }

    /// Crowdin's `de-DE`, Poedit's `ja_JP`, Lokalise's `zh-CN`: written to the existing
    /// `de`, `ja`, `zh-Hans`, as lookup reads them; export finds their translations too.
    @Test(arguments: [("de-DE", "de"), ("ja_JP", "ja"), ("zh-CN", "zh-Hans")])
    func regionTagsWriteTheLanguagesFolder(tag: String, folder: String) throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"save\" = \"old\";\n", to: "r/\(folder).lproj/Localizable.strings")
        let exported = root.path + "/x.po"
        #expect(try run("export", root.path + "/r", "--lang", tag, "--output", exported).status == 0)
        #expect(try String(contentsOfFile: exported, encoding: .utf8).contains("msgstr \"old\""))
        let po = try root.write(
            "msgid \"\"\nmsgstr \"\"\n\"Language: \(tag)\\n\"\n\nmsgctxt \"en.lproj/Localizable.strings|save\"\n"
                + "msgid \"Save\"\nmsgstr \"new\"\n", to: "t.po")
        let result = try run("import", root.path + "/r", po)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.table(root.path + "/r/\(folder).lproj/Localizable.strings")["save"] == "new")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path + "/r").sorted()
        #expect(folders == ["en.lproj", "\(folder).lproj"].sorted())
    }

    /// A unit an XLIFF names that the project lacks, with a source no unit has: an error
    /// naming it and exit 1, never "0 values changed" with the edit lost.
    @Test func anUnplaceableUnitFailsTheImport() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let xliff = try Self.xliff(
            in: root, original: "messages.po",
            units: #"<trans-unit id="7"><source>Gone</source><target>Weg</target></trans-unit>"#
                + #"<trans-unit id="8"><source>Quit</source><target>Beenden</target></trans-unit>"#)
        let result = try run("import", resources, xliff)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"messages.po: unit "7": no unit has this source text"#), "\(result.stderr)")
        // The placeable one (po2xliff numbers its units: found by its source) is written.
        #expect(try Self.table(resources + "/de.lproj/Localizable.strings")["quit"] == "Beenden")
    }

    /// Xcode's `.xcloc` folder: its `Localized Contents/LANG.xliff` is what is imported.
    @Test func anXclocFolderIsImported() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        try FileManager.default.createDirectory(
            atPath: root.path + "/de.xcloc/Localized Contents", withIntermediateDirectories: true)
        let xliff = root.path + "/de.xcloc/Localized Contents/de.xliff"
        #expect(try run("export", resources, "--lang", "de", "--output", xliff).status == 0)
        let text = try String(contentsOfFile: xliff, encoding: .utf8)
        try text.replacing("<target>Sichern</target>", with: "<target>Speichern</target>").write(
            toFile: xliff, atomically: true, encoding: .utf8)
        let result = try run("import", resources, root.path + "/de.xcloc")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.table(resources + "/de.lproj/Localizable.strings")["save"] == "Speichern")
    }

    static var hasTranslateToolkit: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/xliff2po") }

    /// translate-toolkit itself (Debian's `translate-toolkit`): export → `xliff2po` (no
    /// `msgctxt`, ids as `#:` unless the id is the source text, duplicates under `msgctxt ""`)
    /// → an edit → import; then `po2xliff` (units renumbered, `#:` as context groups) → import.
    @Test(.enabled(if: hasTranslateToolkit, "translate-toolkit (xliff2po, po2xliff) is not installed: skipped"))
    func translateToolkitRoundTrip() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(
            in: root, german: "\"save\" = \"Sichern\";\n\"open.file\" = \"Öffnen\";\n\"open.url\" = \"Aufrufen\";\n")
        let xliff = root.path + "/de.xliff"
        #expect(try run("export", resources, "--lang", "de", "--output", xliff).status == 0)
        let po = root.path + "/de.po"
        let converted = try ProcessRunner.run(
            "/usr/bin/xliff2po", ["--progress=none", xliff, po], environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(converted.status == 0, "\(converted.stderr)")
        var text = try String(contentsOfFile: po, encoding: .utf8)
        #expect(!text.contains("msgctxt \"en.lproj"))
        text = text.replacing("msgstr \"Aufrufen\"", with: "msgstr \"Laden\"")
        try text.write(toFile: po, atomically: true, encoding: .utf8)
        let imported = try run("import", resources, po, "--lang", "de")
        #expect(imported.status == 0 && imported.stderr.contains("1 value changed"), "\(imported.stderr)")
        let expected = ["save": "Sichern", "open.file": "Öffnen", "open.url": "Laden"]
        #expect(try Self.table(resources + "/de.lproj/Localizable.strings") == expected)

        let back = root.path + "/back.xliff"
        let reconverted = try ProcessRunner.run(
            "/usr/bin/po2xliff", ["--progress=none", po, back], environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(reconverted.status == 0, "\(reconverted.stderr)")
        try String(contentsOfFile: back, encoding: .utf8).replacing(">Laden<", with: ">Holen<").write(
            toFile: back, atomically: true, encoding: .utf8)
        let again = try run("import", resources, back, "--lang", "de")
        #expect(again.status == 0 && again.stderr.contains("1 value changed"), "\(again.stderr)")
        #expect(try Self.table(resources + "/de.lproj/Localizable.strings")["open.url"] == "Holen")
    }
}
