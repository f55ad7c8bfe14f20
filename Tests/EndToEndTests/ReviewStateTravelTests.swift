import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Review states travel (issue 23 item 2): a String Catalog's `new` / `needs_review` /
/// `translated` go out as XLIFF `state` and `approved`, and as `.po` `#, fuzzy`, and come back;
/// a fuzzy translation is not taken as final unless `--accept-fuzzy`; confirming an unchanged
/// value clears `needs_review`.
@Suite struct ReviewStateTravelTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: arguments)
    }

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Close" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Schließen" } }
              }
            },
            "New" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "new", "value" : "New" } }
              }
            },
            "Open" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Offnen" } }
              }
            }
          },
          "version" : "1.0"
        }

        """

    /// A catalog exported, edited as a translator's tool would, imported back.
    func roundTrip(_ format: String, edit: (String) -> String, _ extra: String...) throws -> (
        output: ProcessOutput, catalog: String, exported: String
    ) {
        let root = try TemporaryDirectory()
        let path = try root.write(Self.catalog, to: "r/Localizable.xcstrings")
        let file = root.path + "/de." + format
        #expect(try run("export", root.path + "/r", "--lang", "de", "--output", file).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(try run("import", root.path + "/r", file).status == 0)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == Self.catalog, "an untouched export changes nothing")
        try edit(exported).write(toFile: file, atomically: true, encoding: .utf8)
        let output = try ProcessRunner.run(
            l10nctl, ["import", root.path + "/r", file] + extra, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        return (output, try String(contentsOfFile: path, encoding: .utf8), exported)
    }

    @Test func xliffCarriesTheStatesBothWays() throws {
        let (output, catalog, exported) = try roundTrip("xliff") {
            $0.replacing(#"<target state="needs-review-translation">Offnen</target>"#, with: "<target>Offnen</target>")
                .replacing(#"<target state="new">New</target>"#, with: #"<target state="new">Neu</target>"#)
                .replacing(
                    #"<target>Schließen</target>"#, with: #"<target state="needs-review-translation">Zu</target>"#)
        }
        #expect(exported.contains(#"<trans-unit id="Close" xml:space="preserve" approved="yes">"#))
        #expect(exported.contains(#"<target state="needs-review-translation">Offnen</target>"#))
        #expect(exported.contains(#"<target state="new">New</target>"#))
        #expect(output.status == 0 && output.stderr.contains("3 values changed"), "\(output.stderr)")
        // Confirmed unchanged: translated. Edited but still new: new. Edited to review: needs_review.
        #expect(catalog.contains(#"{ "state" : "translated", "value" : "Offnen" }"#), "\(catalog)")
        #expect(catalog.contains(#"{ "state" : "new", "value" : "Neu" }"#), "\(catalog)")
        #expect(catalog.contains(#"{ "state" : "needs_review", "value" : "Zu" }"#), "\(catalog)")
    }

    @Test func poFuzzyIsNeedsReviewAndItsRemovalConfirms() throws {
        let (output, catalog, exported) = try roundTrip("po") {
            $0.replacing(
                "#, fuzzy\nmsgctxt \"Localizable.xcstrings|Open\"", with: "msgctxt \"Localizable.xcstrings|Open\""
            )
            .replacing("msgstr \"Schließen\"", with: "msgstr \"Zumachen\"")
            .replacing(
                "msgctxt \"Localizable.xcstrings|Close\"", with: "#, fuzzy\nmsgctxt \"Localizable.xcstrings|Close\"")
        }
        #expect(exported.contains("#, fuzzy\nmsgctxt \"Localizable.xcstrings|Open\""), "\(exported)")
        #expect(exported.contains("#, fuzzy\nmsgctxt \"Localizable.xcstrings|New\""), "\(exported)")
        #expect(!exported.contains("#, fuzzy\nmsgctxt \"Localizable.xcstrings|Close\""), "\(exported)")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(catalog.contains(#"{ "state" : "translated", "value" : "Offnen" }"#), "\(catalog)")
        #expect(catalog.contains(#"{ "state" : "needs_review", "value" : "Zumachen" }"#), "\(catalog)")
        #expect(catalog.contains(#"{ "state" : "new", "value" : "New" }"#), "\(catalog)")
    }

    /// A `.strings` file has no review state: a fuzzy message (after `msgmerge`) is not
    /// written, as `msgfmt` leaves it out, and the import says so and fails; `--accept-fuzzy`
    /// writes it.
    @Test func aFuzzyMessageForAStringsFileIsHeldBackUnlessAccepted() throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", to: "r/en.lproj/Localizable.strings")
        let german = try root.write("\"save\" = \"Sichern\";\n", to: "r/de.lproj/Localizable.strings")
        let po = try root.write(
            """
            msgid ""
            msgstr ""
            "Language: de\\n"

            #, fuzzy
            msgctxt "en.lproj/Localizable.strings|save"
            msgid "Save"
            msgstr "Speichern"

            msgctxt "en.lproj/Localizable.strings|quit"
            msgid "Quit"
            msgstr "Beenden"

            """, to: "de.po")
        let held = try run("import", root.path + "/r", po)
        #expect(held.status == 1, "\(held.stderr)")
        #expect(held.stderr.contains(#"unit "save" is marked fuzzy (not final)"#), "\(held.stderr)")
        #expect(held.stderr.contains("1 value changed"), "\(held.stderr)")
        #expect(
            try String(contentsOfFile: german, encoding: .utf8) == "\"save\" = \"Sichern\";\n\"quit\" = \"Beenden\";\n")
        let accepted = try run("import", root.path + "/r", po, "--accept-fuzzy")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(
            try String(contentsOfFile: german, encoding: .utf8)
                == "\"save\" = \"Speichern\";\n\"quit\" = \"Beenden\";\n")
    }

    /// A non-final translation of a catalog unit that has no localization in the language
    /// yet is written with its state (`needs_review`), from a `.po` `#, fuzzy` and from an
    /// XLIFF `needs-review-translation`, as TRANSLATORS.md says.
    @Test(arguments: ["po", "xliff"]) func aFuzzyTranslationOfAnUntranslatedCatalogUnitIsNeedsReview(
        format: String
    ) throws {
        let root = try TemporaryDirectory()
        let path = try root.write(
            "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"Open\" : {\n\n    }\n  },\n  \"version\" : \"1.0\"\n}\n",
            to: "r/Localizable.xcstrings")
        let file = root.path + "/de." + format
        #expect(try run("export", root.path + "/r", "--lang", "de", "--output", file).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        // The header's msgstr "" stays; only the unit's message becomes fuzzy with a translation.
        let text =
            format == "po"
            ? exported.replacing(
                "msgctxt \"Localizable.xcstrings|Open\"\nmsgid \"Open\"\nmsgstr \"\"\n",
                with: "#, fuzzy\nmsgctxt \"Localizable.xcstrings|Open\"\nmsgid \"Open\"\nmsgstr \"Öffnen\"\n")
            : exported.replacing(
                "<source>Open</source>",
                with: "<source>Open</source>\n        <target state=\"needs-review-translation\">Öffnen</target>")
        #expect(text != exported)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try run("import", root.path + "/r", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        let catalog = try String(contentsOfFile: path, encoding: .utf8)
        #expect(catalog.contains(#""state" : "needs_review""#), "\(catalog)")
        #expect(catalog.contains(#""value" : "Öffnen""#), "\(catalog)")
        #expect(!catalog.contains(#""state" : "translated""#), "\(catalog)")
    }
}
