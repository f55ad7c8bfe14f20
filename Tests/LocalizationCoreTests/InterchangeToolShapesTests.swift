import Foundation
import LocalizationCore
import LocalizationInterchange
import Testing

/// The shapes translation tools write, read back whole (issue 23 item 1).
@Suite struct InterchangeToolShapesTests {
    /// A `.po` as Windows editors and `msgcat` on Windows leave it: a byte order mark, CRLF
    /// line ends, no final newline (translate-toolkit's `xliff2po` ends without one too).
    @Test func aPOWithBOMAndCRLFAndNoFinalNewlineReadsAsAnyOther() throws {
        let lines = [
            "msgid \"\"", "msgstr \"\"", "\"Language: de\\n\"", "\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"", "",
            "#, fuzzy", "msgctxt \"en.lproj/A.strings|k\"", "msgid \"Settings\"", "msgstr \"Einstellungen\"", "",
            "msgctxt \"en.lproj/A.strings|q\"", "msgid \"Quit\"", "msgstr \"Beenden\"",
        ]
        let text = "\u{FEFF}" + lines.joined(separator: "\r\n")
        let contents = try PODocument.parse(text)
        #expect(contents.language == "de")
        #expect(contents.pluralForms == "nplurals=2; plural=(n != 1);")
        #expect(contents.entries.map(\.translations) == [["Einstellungen"], ["Beenden"]])
        #expect(contents.entries.map(\.isFuzzy) == [true, false])
        #expect(contents.entries.map(\.context) == ["en.lproj/A.strings|k", "en.lproj/A.strings|q"])
    }

    /// translate-toolkit's `xliff2po` writes messages with no `msgctxt` at all.
    @Test func messagesWithoutContextKeepTheirSource() throws {
        let text =
            "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\n"
            + "msgstr[0] \"%d fichier\"\nmsgstr[1] \"%d fichiers\"\n\nmsgid \"Quit\"\nmsgstr \"Quitter\""
        let entries = try PODocument.parse(text).entries
        #expect(entries.map(\.context) == [nil, nil])
        #expect(entries.map(\.source) == ["%d file", "Quit"])
        #expect(entries[0].sourcePlural == "%d files" && entries[0].line == 4)
    }

    @Test(arguments: [
        ("(n > 1)", [0: 0, 1: 0, 2: 1, 5: 1]),
        ("n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", [1: 0, 2: 1, 12: 2, 22: 1, 25: 2]),
        ("!(n == 1) + 0 * (3 - 1) / 2", [1: 0, 7: 1]),
        (
            "n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5",
            [0: 0, 1: 1, 2: 2, 103: 3, 111: 4, 100: 5]
        ),
    ])
    func pluralFormulasEvaluateAsC(formula: String, expected: [UInt64: UInt64]) throws {
        let expression = try GettextPluralExpression(header: "nplurals=6; plural=\(formula);")
        for (n, slot) in expected { #expect(try expression.index(for: n) == slot, "n = \(n)") }
    }

    @Test(arguments: [
        "nplurals=2; plural=n +;", "nplurals=2; plural=(n > 1;", "nplurals=0; plural=0;", "nplurals=2;",
        "nplurals=2; plural=n $ 2;", "nplurals=2; plural=n / 0;",
        "nplurals=2; plural=" + String(repeating: "(", count: 500) + "n" + String(repeating: ")", count: 500) + ";",
        "nplurals=2; plural=" + String(repeating: "!", count: 900) + "n;",
        "nplurals=2; plural=" + Array(repeating: "n", count: 300).joined(separator: "+") + ";",
    ])
    func badPluralFormulasAreRefusedNotCrashedOn(header: String) throws {
        #expect(throws: InterchangeError.self) {
            let expression = try GettextPluralExpression(header: header)
            _ = try expression.index(for: 3)
        }
    }

    /// French as Poedit and `msginit` write it: `msgstr[1]` is `other` (and `many`, the
    /// round millions), never `many` alone.
    @Test func frenchTwoFormsFillOtherAndMany() throws {
        let french = try LanguageTag("fr")
        let slots = try GettextPluralSlots(header: "nplurals=2; plural=(n > 1);", language: french)
        #expect(slots.categories(of: 0) == [.one])
        #expect(slots.categories(of: 1) == [.many, .other])
        // This project's own export keeps CLDR's order, with Russian's fraction-only `other`.
        let russian = try LanguageTag("ru")
        let own = try GettextPluralSlots(header: GettextPluralForms(language: russian).header, language: russian)
        #expect((0..<4).map(own.categories(of:)) == [[.one], [.few], [.many], [.other]])
        // The classic gettext Russian formula: three slots, `other` reached by no integer.
        let classic = try GettextPluralSlots(
            header:
                "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
            language: russian)
        #expect((0..<3).map(classic.categories(of:)) == [[.one], [.few], [.many]])
    }

    /// Crowdin, Lokalise and Okapi write targets in CDATA, whole or in part.
    @Test func xliffTargetsInCDATAAreReadWhole() throws {
        let xliff = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="en.lproj/A.strings" source-language="en" target-language="ru" datatype="plaintext">
                <body>
                  <trans-unit id="a"><source>Settings</source><target><![CDATA[Настройки]]></target></trans-unit>
                  <trans-unit id="b"><source>Settings</source><target>Наст<![CDATA[ройки & <b>]]></target></trans-unit>
                </body>
              </file>
            </xliff>
            """
        let (language, entries) = try XLIFFDocument.parse(Data(xliff.utf8))
        #expect(language == "ru")
        #expect(entries.map(\.target) == ["Настройки", "Настройки & <b>"])
        #expect(entries.map(\.source) == ["Settings", "Settings"])
    }
}
