import Foundation
import LocalizationCore
import TestSupport
import Testing

/// No silent overwrite (issue 23 item 3): export records a hash of each unit's value; an
/// import that would replace a value changed in the files since then stops and lists the
/// conflict (`--force` takes the file's), and a value the translator left as exported does
/// not revert a newer edit; and a translation made for a source text changed since is named
/// and not taken as final.
@Suite struct ImportConflictTests {

    @Test(arguments: ["xliff", "po"])
    func aStaleExportCannotOverwriteNewerEdits(format: String) throws {
        let project = try ImportProject(
            english: "\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n\"open\" = \"Open\";\n",
            german: "\"save\" = \"Sichern\";\n\"quit\" = \"Ende\";\n\"open\" = \"Auf\";\n")
        let german = project.german
        let file = project.directory.path + "/de." + format
        #expect(try project.exporting("--lang", "de", "--output", file).status == 0)
        // The translator works on the export: changes save and open, leaves quit.
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let edited = exported.replacing("Sichern", with: "Speichern").replacing("Auf\"", with: "Öffnen\"")
            .replacing(">Auf<", with: ">Öffnen<")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        // Meanwhile the files change save and quit.
        let newer = "\"save\" = \"Sicher\";\n\"quit\" = \"Beenden\";\n\"open\" = \"Auf\";\n"
        try newer.write(toFile: german, atomically: true, encoding: .utf8)

        let stopped = try project.importing(file)
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(
            stopped.stderr.contains(
                #"l10nctl: conflict: en.lproj/Localizable.strings: unit "save" changed in "#), "\(stopped.stderr)")
        #expect(stopped.stderr.contains(#"(now "Sicher"); the import would replace it with "Speichern""#))
        #expect(!stopped.stderr.contains(#"unit "quit""#) && !stopped.stderr.contains(#"unit "open""#))
        #expect(try String(contentsOfFile: german, encoding: .utf8) == newer, "nothing is written")

        let forced = try project.importing(file, "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        // The translator's save and open; quit, which only the files changed, stays theirs.
        #expect(
            try String(contentsOfFile: german, encoding: .utf8)
                == "\"save\" = \"Speichern\";\n\"quit\" = \"Beenden\";\n\"open\" = \"Öffnen\";\n")
        #expect(
            forced.stderr.contains("1 value changed in the files since the export and untouched"), "\(forced.stderr)")
    }

    /// `outdated-translation` for `.strings`, at the one moment l10nd can know it: an import
    /// whose file says which source text each translation was made for (XLIFF `<source>`, an
    /// exported `.po` message's `msgid`) names each one whose source text has changed since,
    /// and takes it as not final, as `msgmerge` marks it fuzzy: a `.strings` file does not
    /// take it unless `--accept-fuzzy`; a catalog writes it `needs_review`, which lint
    /// reports as outdated.
    @Test(arguments: ["xliff", "po"])
    func aTranslationOfAnOlderSourceTextIsSaidAndNotTakenAsFinal(format: String) throws {
        let project = try ImportProject(
            english: "\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", german: "\"quit\" = \"Beenden\";\n")
        let (english, german) = (project.resources + "/en.lproj/Localizable.strings", project.german)
        let file = project.directory.path + "/de." + format
        #expect(try project.exporting("--lang", "de", "--output", file).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        // The translator fills save; meanwhile its English becomes a different text.
        let filled =
            format == "po"
            ? exported.replacing("msgid \"Save\"\nmsgstr \"\"", with: "msgid \"Save\"\nmsgstr \"Sichern\"")
            : exported.replacing("<source>Save</source>", with: "<source>Save</source><target>Sichern</target>")
        #expect(filled != exported)
        try filled.write(toFile: file, atomically: true, encoding: .utf8)
        try "\"save\" = \"Save a copy\";\n\"quit\" = \"Quit\";\n".write(
            toFile: english, atomically: true, encoding: .utf8)

        let result = try project.importing(file)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                #"l10nctl: outdated: en.lproj/Localizable.strings: unit "save" was translated from "Save"; "#
                    + #"the source text is now "Save a copy""#), "\(result.stderr)")
        #expect(result.stderr.contains("was translated from an older source text (not final)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: german, encoding: .utf8) == "\"quit\" = \"Beenden\";\n")

        let accepted = try project.importing(file, "--accept-fuzzy")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stderr.contains("l10nctl: outdated: "), "\(accepted.stderr)")
        #expect(try String(contentsOfFile: german, encoding: .utf8).contains("\"save\" = \"Sichern\";"))
    }

    @Test func aCatalogTakesItAsNeedsReviewAndLintSaysOutdated() throws {
        let root = try TemporaryDirectory()
        let catalog = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "save" : {
                  "localizations" : {
                    "en" : { "stringUnit" : { "state" : "translated", "value" : "SOURCE" } }
                  }
                }
              },
              "version" : "1.0"
            }

            """
        let path = try root.write(catalog.replacing("SOURCE", with: "Save"), to: "r/Menu.xcstrings")
        try root.write("\"x\" = \"x\";\n", to: "r/de.lproj/Other.strings")
        let file = root.path + "/de.po"
        #expect(try L10nctl.run("export", root.path + "/r", "--lang", "de", "--output", file).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let filled = exported.replacing("msgid \"Save\"\nmsgstr \"\"", with: "msgid \"Save\"\nmsgstr \"Sichern\"")
        #expect(filled != exported, "\(exported)")
        try filled.write(toFile: file, atomically: true, encoding: .utf8)
        try catalog.replacing("SOURCE", with: "Save a copy").write(toFile: path, atomically: true, encoding: .utf8)

        let result = try L10nctl.run("import", root.path + "/r", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(#"unit "save" was translated from "Save""#), "\(result.stderr)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("\"state\" : \"needs_review\"") && written.contains("Sichern"), "\(written)")
        let lint = try L10nctl.run("lint", path)
        #expect(lint.stdout.contains("[outdated-translation]"), "\(lint.stdout)")
    }

    /// A plural message's `msgid` and `msgid_plural` are the development language's `one`
    /// and `other` forms: a change to the `other` form (which a one-form `msgid` does not
    /// show) outdates the message, as XLIFF's per-form `<source>` does.
    /// A language with one category (Japanese) has the same `msgid` and `msgid_plural`, as
    /// gettext writes them for every language.
    @Test(arguments: [
        (
            "de", "msgstr[1]", "Stimmen",
            #""%ld vote" / "%ld votes"; the source texts are now "%ld vote" / "%ld ballots""#
        ),
        ("ja", "msgstr[0]", "票", #""%ld vote" / "%ld votes"; the source texts are now "%ld vote" / "%ld ballots""#),
    ])
    func aChangedPluralFormOutdatesAPOMessage(language: String, slot: String, word: String, texts: String) throws {
        let root = try TemporaryDirectory()
        func stringsdict(_ one: String, _ other: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>votes</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%#@n@</string>
                <key>n</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key>
                  <string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key>
                  <string>ld</string>
                  <key>one</key>
                  <string>\(one)</string>
                  <key>other</key>
                  <string>\(other)</string>
                </dict>
              </dict>
            </dict>
            </plist>

            """
        }
        let english = try root.write(stringsdict("%ld vote", "%ld votes"), to: "r/en.lproj/Localizable.stringsdict")
        let translation = stringsdict("%ld " + word, "%ld " + word)
        let german = try root.write(translation, to: "r/\(language).lproj/Localizable.stringsdict")
        let file = root.path + "/\(language).po"
        #expect(
            try L10nctl.run("export", root.path + "/r", "--lang", language, "--format", "po", "--output", file).status
                == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let edited = exported.replacing("\(slot) \"%ld \(word)\"", with: "\(slot) \"%ld Wahlzettel\"")
        #expect(edited != exported, "\(exported)")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        try stringsdict("%ld vote", "%ld ballots").write(toFile: english, atomically: true, encoding: .utf8)

        let result = try L10nctl.run("import", root.path + "/r", file)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                #"l10nctl: outdated: en.lproj/Localizable.stringsdict: plural "/votes:dict/n:dict" was "#
                    + #"translated from "#
                    + texts),
            "\(result.stderr)")
        #expect(try String(contentsOfFile: german, encoding: .utf8) == translation)
    }

    /// In a String Catalog the outdated plural translation is written `needs_review`, by
    /// either interchange format.
    @Test(arguments: ["xliff", "po"])
    func aCatalogPluralOfAChangedOtherFormNeedsReview(format: String) throws {
        let root = try TemporaryDirectory()
        func catalog(_ other: String, german: String = "") -> String {
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "votes" : {
                  "localizations" : {
                    \(german)"en" : { "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld vote" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "\(other)" } }
                    } } }
                  }
                }
              },
              "version" : "1.0"
            }

            """
        }
        let german =
            #""de" : { "variations" : { "plural" : {"#
            + #""one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Stimme" } },"#
            + #""other" : { "stringUnit" : { "state" : "translated", "value" : "%lld Stimmen" } } } } },"#
        let path = try root.write(catalog("%lld votes", german: german), to: "r/Menu.xcstrings")
        let file = root.path + "/de." + format
        #expect(try L10nctl.run("export", root.path + "/r", "--lang", "de", "--output", file).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let edited =
            format == "po"
            ? exported.replacing("msgstr[1] \"%lld Stimmen\"", with: "msgstr[1] \"%lld Wahlzettel\"")
            : exported.replacing(">%lld Stimmen<", with: ">%lld Wahlzettel<")
        #expect(edited != exported, "\(exported)")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        try catalog("%lld ballots", german: german).write(toFile: path, atomically: true, encoding: .utf8)

        let result = try L10nctl.run("import", root.path + "/r", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("l10nctl: outdated: "), "\(result.stderr)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("Wahlzettel") && written.contains("\"state\" : \"needs_review\""), "\(written)")
    }
}
