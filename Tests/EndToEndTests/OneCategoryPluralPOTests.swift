import Foundation
import TestSupport
import Testing

/// A language whose plural rule has only `other` (Japanese, Chinese, Korean) is exported as
/// gettext writes every language: `msgid` the development language's singular, `msgid_plural`
/// its plural, and one `msgstr[0]`. So `msgmerge` matches its messages with any other
/// language's (or a template's) by `msgctxt` and `msgid`; import, its source-text matching and
/// its outdated check read the same convention, and a file exported before (`msgid` the
/// `other` form, as `msgid_plural`) still imports into the same forms.
@Suite struct OneCategoryPluralPOTests {
    static var hasGettext: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/msgmerge")
    }

    /// English `%ld vote` / `%ld votes`, Japanese `%ld 票` and French, in a temp directory.
    func project() throws -> (root: TemporaryDirectory, resources: String, japanese: String) {
        let root = try TemporaryDirectory()
        try root.write(
            StringsDictFixture.file([("votes", [("one", "%ld vote"), ("other", "%ld votes")])], valueType: "ld"),
            to: "r/en.lproj/Localizable.stringsdict")
        try root.write(
            StringsDictFixture.file([("votes", [("one", "%ld voix"), ("other", "%ld voix")])], valueType: "ld"),
            to: "r/fr.lproj/Localizable.stringsdict")
        let japanese = try root.write(
            StringsDictFixture.file([("votes", [("other", "%ld 票")])], valueType: "ld"),
            to: "r/ja.lproj/Localizable.stringsdict")
        return (root, root.path + "/r", japanese)
    }

    static let message =
        "msgctxt \"en.lproj/Localizable.stringsdict|/votes:dict/n:dict\"\n"
        + "msgid \"%ld vote\"\nmsgid_plural \"%ld votes\"\nmsgstr[0] \"%ld 票\"\n"

    @Test(.enabled(if: hasGettext, "gettext's msgfmt and msgmerge are not installed: skipped"))
    func theExportIsGettextsAndMsgmergeMatchesItWithAnotherLanguage() throws {
        let (root, resources, japanese) = try project()
        let po = root.path + "/ja.po"
        let template = root.path + "/fr.po"
        #expect(try L10nctl.run("export", resources, "--lang", "ja", "--output", po).status == 0)
        #expect(try L10nctl.run("export", resources, "--lang", "fr", "--output", template).status == 0)
        // The template as a `.pot` is: without French's export hashes (msgmerge takes the
        // extracted comments from the template, and French's would not be Japanese's).
        let french = try String(contentsOfFile: template, encoding: .utf8)
        try french.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#. l10nd-base:") }
            .joined(separator: "\n").write(toFile: template, atomically: true, encoding: .utf8)
        let exported = try String(contentsOfFile: po, encoding: .utf8)
        #expect(exported.contains(Self.message), "\(exported)")
        let check = try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", po])
        #expect(check.status == 0, "\(check.stderr)")

        // The translator's file merged with another language's messages as the template: the
        // Japanese translation stays on its message, exact (no fuzzy match, nothing obsolete).
        let merged = root.path + "/merged.po"
        let merge = try ProcessRunner.run(
            "/usr/bin/msgmerge", ["--no-fuzzy-matching", "--quiet", "-o", merged, po, template])
        #expect(merge.status == 0, "\(merge.stderr)")
        let mergedText = try String(contentsOfFile: merged, encoding: .utf8)
        #expect(mergedText.contains("msgstr[0] \"%ld 票\""), "\(mergedText)")
        #expect(!mergedText.contains("#~") && !mergedText.contains("fuzzy"), "\(mergedText)")

        try mergedText.replacing("msgstr[0] \"%ld 票\"", with: "msgstr[0] \"%ld 件の票\"")
            .write(toFile: merged, atomically: true, encoding: .utf8)
        let imported = try L10nctl.run("import", resources, merged)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("outdated"), "\(imported.stderr)")
        #expect(try String(contentsOfFile: japanese, encoding: .utf8).contains("<string>%ld 件の票</string>"))
    }

    /// Without `msgctxt` (translate-toolkit's tools, a stripped file) the message is placed by
    /// its `msgid` and `msgid_plural`, the development language's singular and plural.
    @Test func aMessageWithoutContextIsPlacedByGettextsSourceTexts() throws {
        let (root, resources, japanese) = try project()
        let po = try root.write(
            "msgid \"\"\nmsgstr \"\"\n\"Language: ja\\n\"\n\"Plural-Forms: nplurals=1; plural=0;\\n\"\n\n"
                + "msgid \"%ld vote\"\nmsgid_plural \"%ld votes\"\nmsgstr[0] \"%ld 件の票\"\n", to: "ja.po")
        let imported = try L10nctl.run("import", resources, po)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try String(contentsOfFile: japanese, encoding: .utf8).contains("<string>%ld 件の票</string>"))
    }

    /// A file exported before this convention (`msgid` = `msgid_plural` = the `other` form)
    /// names the same `other` text its one translation is for: it imports, not outdated.
    @Test func anExportOfTheOlderConventionStillImports() throws {
        let (root, resources, japanese) = try project()
        let po = root.path + "/ja.po"
        #expect(try L10nctl.run("export", resources, "--lang", "ja", "--output", po).status == 0)
        let exported = try String(contentsOfFile: po, encoding: .utf8)
        let older = exported.replacing(
            Self.message,
            with: Self.message.replacing("msgid \"%ld vote\"", with: "msgid \"%ld votes\"").replacing(
                "%ld 票", with: "%ld 件の票"))
        #expect(older != exported)
        try older.write(toFile: po, atomically: true, encoding: .utf8)
        let imported = try L10nctl.run("import", resources, po)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("outdated"), "\(imported.stderr)")
        #expect(try String(contentsOfFile: japanese, encoding: .utf8).contains("<string>%ld 件の票</string>"))
    }
}
