import Foundation
import LocalizationCore
import TestSupport
import Testing

/// `l10nctl export` and `import` through the built executable, on copies of the real
/// corpora: no edit changes no byte, one edit changes exactly one value, and the files
/// pass the translators' own tools' checks (`msgfmt --check`, the XLIFF 1.2 schema).
@Suite struct InterchangeRoundTripTests {

    /// `../shared/corpus/<name>`, or `nil` where a user's own clone has no `../shared`.
    static func corpus(_ name: String) -> String? { PackagePaths.shared("corpus/" + name) }
    static var hasCorpora: Bool { corpus("iina") != nil && corpus("mastodon-ios") != nil }
    static var hasSchemas: Bool { PackagePaths.shared("schemas/xliff-core-1.2-transitional.xsd") != nil }

    /// Every regular file under `root` by relative path.
    static func files(under root: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return result
    }

    /// A copy of `source` in a fresh temp directory.
    static func copy(_ source: String) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let copy = directory.path + "/resources"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        return (directory, copy)
    }

    @Test(.enabled(if: hasCorpora, "the corpora ../shared/corpus/{iina,mastodon-ios} are absent: skipped"))
    func exportThenImportWithoutEditsChangesNoByte() throws {
        for name in ["iina", "mastodon-ios"] {
            let original = try #require(Self.corpus(name))
            let (directory, copy) = try Self.copy(original)
            for language in ["ru", "de", "ja"] {
                for format in ["po", "xliff"] {
                    let file = directory.path + "/\(language).\(format)"
                    let exported = try L10nctl.run("export", copy, "--lang", language, "--output", file)
                    #expect(exported.status == 0, "\(exported.stderr)")
                    let imported = try L10nctl.run("import", copy, file)
                    #expect(imported.status == 0, "\(imported.stderr)")
                    #expect(
                        imported.stderr.contains("0 values changed in 0 files"), "\(name) \(file): \(imported.stderr)")
                }
            }
            #expect(try Self.files(under: copy) == Self.files(under: original), "\(name)")
        }
    }

    @Test(.enabled(if: hasCorpora, "the corpora ../shared/corpus/{iina,mastodon-ios} are absent: skipped"))
    func anEditInThePOFileChangesExactlyThatValue() throws {
        let original = try #require(Self.corpus("iina"))
        let (directory, copy) = try Self.copy(original)
        let po = directory.path + "/de.po"
        #expect(try L10nctl.run("export", copy, "--lang", "de", "--output", po).status == 0)
        var text = try String(contentsOfFile: po, encoding: .utf8)
        // The first translated message of Localizable.strings.
        let context = try #require(
            text.range(
                of: #"msgctxt "en.lproj/Localizable.strings\|[^"]+"\nmsgid "[^"]+"\nmsgstr "[^"]+""#,
                options: .regularExpression))
        let message = String(text[context])
        let key = String(message.split(separator: "|", maxSplits: 1)[1].split(separator: "\"")[0])
        let edited = "Bearbeitet: \"zitiert\"\nzweite Zeile"
        let newLine = "msgstr \"Bearbeitet: \\\"zitiert\\\"\\nzweite Zeile\""
        let lastLine = try #require(message.range(of: "msgstr \"", options: .backwards))
        text.replaceSubrange(context, with: message[..<lastLine.lowerBound] + newLine)
        try text.write(toFile: po, atomically: true, encoding: .utf8)

        let before = try Self.files(under: copy)
        let imported = try L10nctl.run("import", copy, po)
        #expect(imported.status == 0 && imported.stderr.contains("1 value changed in 1 file"), "\(imported.stderr)")
        let after = try Self.files(under: copy)
        let changed = after.keys.filter { after[$0] != before[$0] }
        #expect(changed == ["de.lproj/Localizable.strings"])
        // The new file is the old one with that value's token replaced, nothing else.
        let old = try #require(before["de.lproj/Localizable.strings"])
        let parsed = try StringsParser.parse(Array(old))
        let entry = try #require(parsed.entries.last { $0.key == key })
        let range = try #require(entry.valueRange)
        var expected = Array(old)
        let bom = old.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        expected.replaceSubrange(
            (range.lowerBound + bom)..<(range.upperBound + bom), with: Array(StringsText.quoted(edited).utf8))
        #expect(after["de.lproj/Localizable.strings"].map(Array.init) == expected)
        #expect(try StringsParser.parse(expected).table[key] == edited)
    }

    @Test(.enabled(if: hasCorpora, "the corpora ../shared/corpus/{iina,mastodon-ios} are absent: skipped"))
    func anEditInTheXLIFFChangesExactlyThatPluralForm() throws {
        let original = try #require(Self.corpus("mastodon-ios"))
        let (directory, copy) = try Self.copy(original)
        let xliff = directory.path + "/de.xliff"
        #expect(try L10nctl.run("export", copy, "--lang", "de", "--output", xliff).status == 0)
        var text = try String(contentsOfFile: xliff, encoding: .utf8)
        // The first translated `other` form of a .stringsdict.
        let unit = try #require(
            text.range(
                of:
                    #"<file original="[^"]+\.stringsdict"[\s\S]*?<trans-unit id="[^"]*/other:dict/:string"[^>]*>\s*<source>[^<]*</source>\s*<target>[^<]+</target>"#,
                options: .regularExpression))
        let fileName = try #require(text[unit].firstMatch(of: #/original="([^"]+)"/#)?.1)
        let slice = String(text[unit])
        let target = try #require(slice.range(of: "<target>", options: .backwards))
        text.replaceSubrange(unit, with: slice[..<target.lowerBound] + "<target>%d Änderung &amp; mehr</target>")
        try text.write(toFile: xliff, atomically: true, encoding: .utf8)

        let before = try Self.files(under: copy)
        let imported = try L10nctl.run("import", copy, xliff)
        #expect(imported.status == 0 && imported.stderr.contains("1 value changed in 1 file"), "\(imported.stderr)")
        let after = try Self.files(under: copy)
        let changed = after.keys.filter { after[$0] != before[$0] }
        #expect(changed.count == 1 && changed.first?.hasSuffix(".stringsdict") == true, "\(changed) \(fileName)")
        let path = try #require(changed.first)
        let old = try StringsDictReader.parse(Array(before[path]!))
        let new = try StringsDictReader.parse(Array(after[path]!))
        let differing = old.keys.filter { old[$0] != new[$0] }
        #expect(differing.count == 1)
        let forms = try #require(new[differing[0]]?.plural?.variables.values.map(\.forms))
        #expect(forms.contains { $0[.other] == "%d Änderung & mehr" })
        // Only the bytes of that one value differ.
        let oldText = String(decoding: before[path]!, as: UTF8.self)
        let newText = String(decoding: after[path]!, as: UTF8.self)
        let oldLines = oldText.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = newText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(oldLines.count == newLines.count)
        #expect(zip(oldLines, newLines).filter { $0 != $1 }.count == 1)
    }

    @Test(.enabled(if: hasCorpora, "the corpora ../shared/corpus/{iina,mastodon-ios} are absent: skipped"))
    func msgfmtAcceptsTheExportedPOFiles() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") else {
            print("skipped: msgfmt is not installed (Debian gettext; scripts/install-dependencies installs it)")
            return
        }
        let directory = try TemporaryDirectory()
        for name in ["iina", "mastodon-ios"] {
            for language in ["ru", "de", "ar", "ja", "pt-BR", "fr"] {
                let po = directory.path + "/\(name)-\(language).po"
                #expect(
                    try L10nctl.run("export", try #require(Self.corpus(name)), "--lang", language, "--output", po)
                        .status == 0)
                let check = try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", po])
                #expect(check.status == 0, "\(po): \(check.stderr)")
            }
        }
    }

    /// Exported messages carry gettext's format flags, so `msgfmt --check` catches a
    /// translator's broken placeholder; one already broken in the files is exported fuzzy.
    @Test func formatFlagsLetMsgfmtCheckTheTranslatorsPlaceholders() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") else {
            print("skipped: msgfmt is not installed (Debian gettext; scripts/install-dependencies installs it)")
            return
        }
        let root = try TemporaryDirectory()
        try root.write(
            "\"hello\" = \"Hello, %@\";\n\"count\" = \"%ld files\";\n\"plain\" = \"Save\";\n\"broken\" = \"%@ left\";\n",
            to: "en.lproj/Localizable.strings")
        try root.write(
            "\"hello\" = \"Hallo, %@\";\n\"count\" = \"%ld Dateien\";\n\"plain\" = \"Sichern\";\n\"broken\" = \"%d übrig\";\n",
            to: "de.lproj/Localizable.strings")
        let po = root.path + "/de.po"
        #expect(try L10nctl.run("export", root.path, "--lang", "de", "--output", po).status == 0)
        let text = try String(contentsOfFile: po, encoding: .utf8)
        #expect(text.contains("#, objc-format\nmsgctxt \"en.lproj/Localizable.strings|hello\""), "\(text)")
        #expect(text.contains("#, c-format\nmsgctxt \"en.lproj/Localizable.strings|count\""), "\(text)")
        #expect(
            text.contains("#: en.lproj/Localizable.strings\nmsgctxt \"en.lproj/Localizable.strings|plain\""), "\(text)")
        #expect(text.contains("#, fuzzy, objc-format\nmsgctxt \"en.lproj/Localizable.strings|broken\""), "\(text)")
        #expect(try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", po]).status == 0)
        // The translator's slip: %d for %ld.
        try text.replacing("msgstr \"%ld Dateien\"", with: "msgstr \"%d Dateien\"").write(
            toFile: po, atomically: true, encoding: .utf8)
        let check = try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", po])
        #expect(check.status == 1 && check.stderr.contains("format specifications"), "\(check.stderr)")
    }

    @Test(
        .enabled(if: hasCorpora, "the corpora ../shared/corpus/{iina,mastodon-ios} are absent: skipped"),
        .enabled(if: hasSchemas, "the schemas ../shared/schemas are absent: skipped"))
    func theXLIFFValidatesAgainstTheXLIFF12Schema() throws {
        let schemas = PackagePaths.shared + "/schemas"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else {
            print("skipped: xmllint is not installed (Debian libxml2-utils; scripts/install-dependencies installs it)")
            return
        }
        // The schemas import xml.xsd from the network: local copies with the import rewritten.
        // Both pass: the transitional schema, and the strict one Xcode's files name.
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: schemas + "/xml.xsd", toPath: directory.path + "/xml.xsd")
        for variant in ["transitional", "strict"] {
            let schema = try String(contentsOfFile: schemas + "/xliff-core-1.2-\(variant).xsd", encoding: .utf8)
                .replacing("http://www.w3.org/2001/xml.xsd", with: "xml.xsd")
            try directory.write(schema, to: "\(variant).xsd")
        }
        for name in ["iina", "mastodon-ios"] {
            let xliff = directory.path + "/\(name).xliff"
            #expect(
                try L10nctl.run("export", try #require(Self.corpus(name)), "--lang", "ru", "--output", xliff).status
                    == 0)
            for variant in ["transitional", "strict"] {
                let check = try ProcessRunner.run(
                    "/usr/bin/xmllint", ["--nonet", "--noout", "--schema", directory.path + "/\(variant).xsd", xliff])
                #expect(check.status == 0, "\(name), \(variant): \(check.stderr)")
            }
        }
    }

    /// Local copies of the XLIFF 1.2 schemas, transitional and strict, with the network
    /// import of xml.xsd rewritten; `nil` (saying why) where xmllint is absent.
    static func localSchemas(in directory: TemporaryDirectory) throws -> [String]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else {
            print("skipped: xmllint is not installed (Debian libxml2-utils; scripts/install-dependencies installs it)")
            return nil
        }
        let schemas = PackagePaths.shared + "/schemas"
        try FileManager.default.copyItem(atPath: schemas + "/xml.xsd", toPath: directory.path + "/xml.xsd")
        return try ["transitional", "strict"].map { variant in
            let schema = try String(contentsOfFile: schemas + "/xliff-core-1.2-\(variant).xsd", encoding: .utf8)
                .replacing("http://www.w3.org/2001/xml.xsd", with: "xml.xsd")
            return try directory.write(schema, to: "\(variant).xsd")
        }
    }

    /// xmllint's complaint about `xliff` under `schema`, `nil` when it validates.
    static func schemaProblem(_ xliff: String, _ schema: String) throws -> String? {
        let check = try ProcessRunner.run("/usr/bin/xmllint", ["--nonet", "--noout", "--schema", schema, xliff])
        return check.status == 0 ? nil : check.stderr
    }

    /// Every IINA language, control characters included (zh-Hant's U+0018, ml's U+000C):
    /// the XLIFF is well-formed and valid under both schemas, and imports back unchanged.
    @Test(
        .enabled(if: hasCorpora, "the corpora ../shared/corpus/{iina,mastodon-ios} are absent: skipped"),
        .enabled(if: hasSchemas, "the schemas ../shared/schemas are absent: skipped"))
    func everyIINALanguageExportsValidXLIFFAndImportsBackUnchanged() throws {
        let directory = try TemporaryDirectory()
        guard let schemas = try Self.localSchemas(in: directory) else { return }
        let original = try #require(Self.corpus("iina"))
        let (copyDirectory, copy) = try Self.copy(original)
        let languages = try FileManager.default.contentsOfDirectory(atPath: copy)
            .filter { $0.hasSuffix(".lproj") && $0 != "en.lproj" && $0 != "Base.lproj" }
            .map { String($0.dropLast(".lproj".count)) }.sorted()
        #expect(languages.contains("zh-Hant") && languages.contains("ml"))
        for language in languages {
            let xliff = copyDirectory.path + "/\(language).xliff"
            let exported = try L10nctl.run("export", copy, "--lang", language, "--output", xliff)
            #expect(exported.status == 0, "\(language): \(exported.stderr)")
            for schema in schemas {
                let problem = try Self.schemaProblem(xliff, schema)
                #expect(problem == nil, "\(language), \(schema): \(problem ?? "")")
            }
            let imported = try L10nctl.run("import", copy, xliff)
            #expect(
                imported.status == 0 && imported.stderr.contains("0 values changed in 0 files"),
                "\(language): \(imported.stderr)")
        }
        #expect(try Self.files(under: copy) == Self.files(under: original))
    }

    /// Keys and values with characters XML cannot carry (U+0001, U+0018, U+000C), line breaks
    /// and tabs in keys, and a literal `\U0018` beside a real one: exported from one copy and
    /// imported into a copy without the translation, the translation comes back exactly.
    @Test(.enabled(if: hasSchemas, "the schemas ../shared/schemas are absent: skipped"))
    func controlCharactersRoundTripThroughXLIFF() throws {
        let directory = try TemporaryDirectory()
        let keys = [#"k\U0001ey"#, #"tab\tkey"#, #"line\nkey"#, #"lit\\U0018 \U0018"#, #"two\\\\U0018"#, "plain"]
        let english = keys.map { "\"\($0)\" = \"title\\U0018 \\U000C end\";\n" }.joined()
        let german = keys.map { "\"\($0)\" = \"Titel\\U0018 \\U000C & <Ende> \\\\U0018\";\n" }.joined()
        try directory.write(english, to: "from/en.lproj/Localizable.strings")
        let translated = try directory.write(german, to: "from/de.lproj/Localizable.strings")
        try directory.write(english, to: "into/en.lproj/Localizable.strings")
        let xliff = directory.path + "/de.xliff"
        #expect(try L10nctl.run("export", directory.path + "/from", "--lang", "de", "--output", xliff).status == 0)
        let text = try String(contentsOfFile: xliff, encoding: .utf8)
        #expect(text.contains(#"<target>Titel<ph id="c1" ctype="x-ctrl">\U0018</ph> "#), "\(text)")
        #expect(text.contains(#"<trans-unit id="k\U0001ey""#) && text.contains(#"id="line&#10;key""#))
        if let schemas = try Self.localSchemas(in: directory) {
            for schema in schemas { #expect(try Self.schemaProblem(xliff, schema) == nil) }
        }
        let imported = try L10nctl.run("import", directory.path + "/into", xliff)
        #expect(imported.status == 0 && imported.stderr.contains("changed in 1 file"), "\(imported.stderr)")
        let expected = try StringsParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: translated)))).table
        let written = try StringsParser.parse(
            Array(Data(contentsOf: URL(fileURLWithPath: directory.path + "/into/de.lproj/Localizable.strings")))
        ).table
        #expect(written == expected && written.count == keys.count)
    }

    /// An import's error names the line xmllint names.
    @Test func aMalformedXLIFFIsReportedAtItsLine() throws {
        let directory = try TemporaryDirectory()
        try directory.write("\"a\" = \"A\";\n", to: "res/en.lproj/Localizable.strings")
        let body = (1...3000).map { "      <trans-unit id=\"k\($0)\"><source>s</source></trans-unit>\n" }.joined()
        let broken = try directory.write(
            "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">\n  <file original=\"x\">\n    <body>\n"
                + body + "      <trans-unit id=\"bad\"><target>a \u{18} b</target></trans-unit>\n" + body
                + "    </body>\n  </file>\n</xliff>\n", to: "bad.xliff")
        let result = try L10nctl.run("import", directory.path + "/res", broken, "--lang", "de")
        #expect(result.status == 1 && result.stderr.contains("not well-formed XLIFF at line 3005"), "\(result.stderr)")
    }

    /// A String Catalog: plain and plural units, an edit marks the unit translated.
    @Test func aStringCatalogRoundTrips() throws {
        let directory = try TemporaryDirectory()
        let catalog = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "%lld files" : {
                  "localizations" : {
                    "en" : {
                      "variations" : {
                        "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld file" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld files" } }
                        }
                      }
                    },
                    "de" : {
                      "variations" : {
                        "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Datei" } },
                          "other" : { "stringUnit" : { "state" : "new", "value" : "%lld Dateien" } }
                        }
                      }
                    }
                  }
                },
                "Open" : {
                  "comment" : "Menu item",
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Offnen" } }
                  }
                }
              },
              "version" : "1.0"
            }

            """
        let path = try directory.write(catalog, to: "res/Localizable.xcstrings")
        let xliff = directory.path + "/de.xliff"
        #expect(try L10nctl.run("export", directory.path + "/res", "--lang", "de", "--output", xliff).status == 0)
        var text = try String(contentsOfFile: xliff, encoding: .utf8)
        #expect(text.contains(#"<trans-unit id="%lld files|==|plural.other" xml:space="preserve">"#))
        #expect(text.contains("<note>Menu item</note>"))
        #expect(try L10nctl.run("import", directory.path + "/res", xliff).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == catalog)

        // The translator fixes the value and marks it reviewed.
        text = text.replacing(
            #"<target state="needs-review-translation">Offnen</target>"#,
            with: #"<target state="final">Öffnen</target>"#)
        try text.write(toFile: xliff, atomically: true, encoding: .utf8)
        let imported = try L10nctl.run("import", directory.path + "/res", xliff)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == catalog.replacing(
                    #"{ "state" : "needs_review", "value" : "Offnen" }"#,
                    with: #"{ "state" : "translated", "value" : "Öffnen" }"#))
    }

    /// What a translator saves in Poedit reaches a running l10nd: import replaces the file
    /// in one rename, the daemon reloads it and serves the new value.
    @Test func theDaemonServesWhatAnImportWrote() throws {
        let fixture = try HotReloadTests.Fixture(files: [
            "en.lproj/Localizable.strings": "/* Greeting */\n\"k\" = \"Hello\";\n",
            "ja.lproj/Localizable.strings": "\"k\" = \"original\";\n",
        ])
        let po = fixture.resources.path + "/../" + UUID().uuidString + ".po"
        defer { try? FileManager.default.removeItem(atPath: po) }
        #expect(try L10nctl.run("export", fixture.resources.path, "--lang", "ja", "--output", po).status == 0)
        let text = try String(contentsOfFile: po, encoding: .utf8)
        #expect(text.contains("#. Greeting\n"))
        try text.replacing("msgstr \"original\"", with: "msgstr \"こんにちは\"").write(
            toFile: po, atomically: true, encoding: .utf8)
        #expect(try L10nctl.run("import", fixture.resources.path, po).status == 0)
        try fixture.awaitChange("ja")
        #expect(try fixture.value() == "こんにちは")
    }

    @Test func badInputIsAClearErrorAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        try directory.write("\"a\" = \"A\";\n", to: "res/en.lproj/Localizable.strings")
        let de = try directory.write("\"a\" = \"Ä\";\n", to: "res/de.lproj/Localizable.strings")
        let broken = try directory.write("<xliff><file original=\"x\"><trans-unit", to: "bad.xliff")
        let result = try L10nctl.run("import", directory.path + "/res", broken, "--lang", "de")
        #expect(result.status == 1 && result.stderr.contains("not well-formed XLIFF"), "\(result.stderr)")
        #expect(try String(contentsOfFile: de, encoding: .utf8) == "\"a\" = \"Ä\";\n")
        #expect(try L10nctl.run("export", directory.path + "/res").status == 2)
    }
}
