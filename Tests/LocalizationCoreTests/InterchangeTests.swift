import LocalizationCore
import LocalizationInterchange
import TestSupport
import Testing

/// The pieces behind `l10nctl export` and `import`, on bytes in memory.
@Suite struct InterchangeTests {
    @Test func gettextPluralFormsFollowCLDR() throws {
        let russian = GettextPluralForms(language: try LanguageTag("ru"))
        #expect(russian.categories == [.one, .few, .many, .other])
        #expect(russian.header.hasPrefix("nplurals=4; plural="))
        // `v = 0` is folded away: gettext has no fraction digits.
        #expect(!russian.expression.contains("(0 =="))
        #expect(GettextPluralForms(language: try LanguageTag("ja")).header == "nplurals=1; plural=0;")
        #expect(
            GettextPluralForms(language: try LanguageTag("en")).header == "nplurals=2; plural=(((n == 1))) ? 0 : 1;")
        // French `many` is for exponents only: it keeps its slot, gettext's n never reaches it.
        #expect(GettextPluralForms(language: try LanguageTag("fr")).categories == [.one, .many, .other])
    }

    @Test func valueSpansFindPropertyListAndJSONValues() throws {
        let plist = Array(
            "<plist><dict><key>a</key><dict><key>b</key><string>x &amp; y</string><key>c</key><string/></dict></dict></plist>"
                .utf8)
        let spans = try #require(ValueSpans.propertyList(plist))
        let b = try #require(spans.strings[["a", "b"]])
        #expect(String(decoding: plist[b.range], as: UTF8.self) == "x &amp; y")
        #expect(spans.strings[["a", "c"]]?.isEmptyElement == true)
        #expect(spans.keys[["a"]] == ["b", "c"])
        let json = Array(#"{"s": {"k": {"v": "q\"uote", "n": [1, "two"]}}}"#.utf8)
        let jsonSpans = try #require(ValueSpans.json(json))
        let v = try #require(jsonSpans.strings[["s", "k", "v"]])
        #expect(String(decoding: json[v.range], as: UTF8.self) == #""q\"uote""#)
        #expect(jsonSpans.strings[["s", "k", "n", "1"]] != nil)
        #expect(ValueSpans.json(Array(#"{"a": "#.utf8)) == nil)
    }

    @Test func theEditorChangesOnlyTheValueAndAddsMissingForms() throws {
        let strings = Array("/* c */\n\"a\" = \"A\"; // x\n\"b\";\n".utf8)
        let edited = try ResourceEditor.apply(
            [.strings(key: "a", value: "Ä\n"), .strings(key: "b", value: "B"), .strings(key: "new", value: "N")],
            to: strings, kind: .strings, file: "x.strings")
        #expect(
            String(decoding: edited.bytes, as: UTF8.self)
                == "/* c */\n\"a\" = \"Ä\\n\"; // x\n\"b\" = \"B\";\n\"new\" = \"N\";\n")
        let plist = StringsDictFixture.file([("k", [("other", "%d файла")])], valueType: nil)
        let result = try ResourceEditor.apply(
            [.stringsDictForm(key: "k", variable: "n", category: .few, value: "%d <файла>")], to: Array(plist.utf8),
            kind: .stringsDict, file: "x.stringsdict")
        #expect(
            String(decoding: result.bytes, as: UTF8.self)
                == plist.replacing(
                    "<string>%d файла</string>\n",
                    with:
                        "<string>%d файла</string>\n            <key>few</key>\n            <string>%d &lt;файла&gt;</string>\n"
                ))
        let unchanged = try ResourceEditor.apply(
            [.stringsDictForm(key: "k", variable: "n", category: .other, value: "%d файла")], to: Array(plist.utf8),
            kind: .stringsDict, file: "x.stringsdict")
        #expect(unchanged.changed == 0 && unchanged.bytes == Array(plist.utf8))
        let missing = try ResourceEditor.apply(
            [.stringsDictForm(key: "absent", variable: "n", category: .one, value: "x")], to: Array(plist.utf8),
            kind: .stringsDict, file: "x.stringsdict")
        #expect(missing.skipped.count == 1 && missing.bytes == Array(plist.utf8))
    }

    @Test func poMessagesReadBackAsWritten() throws {
        let text = """
            msgid ""
            msgstr ""
            "Language: ru\\n"

            #. a note
            msgctxt "en.lproj/A.strings|k"
            msgid "Two\\nlines"
            msgstr ""
            "Две\\n"
            "строки \\"q\\" \\\\"

            msgctxt "en.lproj/A.stringsdict|/k:dict/n:dict"
            msgid "%d file"
            msgid_plural "%d files"
            msgstr[0] "%d файл"
            msgstr[1] ""

            """
        let contents = try PODocument.parse(text)
        let entries = contents.entries
        #expect(contents.language == "ru")
        #expect(entries.count == 2)
        #expect(entries[0].translations == ["Две\nстроки \"q\" \\"] && !entries[0].isPlural)
        #expect(entries[1].translations == ["%d файл", ""] && entries[1].isPlural)
        #expect(throws: InterchangeError.self) { try PODocument.parse("msgid \"a\nmsgstr") }
    }
}
