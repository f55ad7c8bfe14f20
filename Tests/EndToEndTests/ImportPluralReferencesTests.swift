import Foundation
import TestSupport
import Testing

/// translate-toolkit's `xliff2po` writes each XLIFF unit, each plural form too, as a message
/// of its own without `msgctxt`, the unit's id its `#:` reference: a reference naming exactly
/// one unit places the message there, so an untouched round trip changes nothing and an
/// edited form lands in its form (every plural form of mastodon-ios was "no unit has this
/// source text", exit 1).
@Suite struct ImportPluralReferencesTests {
    static var hasTranslateToolkit: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/xliff2po") }

    static func plist(_ one: String, _ few: String?, _ many: String?, _ other: String) -> String {
        var forms = "<key>one</key><string>\(one)</string>"
        if let few { forms += "<key>few</key><string>\(few)</string>" }
        if let many { forms += "<key>many</key><string>\(many)</string>" }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>days</key>
            \t<dict>
            \t\t<key>NSStringLocalizedFormatKey</key>
            \t\t<string>%#@count@</string>
            \t\t<key>count</key>
            \t\t<dict>
            \t\t\t<key>NSStringFormatSpecTypeKey</key>
            \t\t\t<string>NSStringPluralRuleType</string>
            \t\t\t<key>NSStringFormatValueTypeKey</key>
            \t\t\t<string>ld</string>
            \t\t\t\(forms)<key>other</key><string>\(other)</string>
            \t\t</dict>
            \t</dict>
            </dict>
            </plist>

            """
    }

    /// A `.stringsdict` plural and a String Catalog plural whose key has a space and a `%`
    /// (ids with `|`; `xliff2po` writes the reference as `%25lld+files%7C…`, a space as `+`),
    /// Russian.
    static func project(in root: TemporaryDirectory) throws -> String {
        try root.write(Self.plist("%ld day", nil, nil, "%ld days"), to: "r/en.lproj/Localizable.stringsdict")
        try root.write(
            Self.plist("%ld день", "%ld дня", "%ld дней", "%ld дня"), to: "r/ru.lproj/Localizable.stringsdict")
        func forms(_ pairs: [(String, String)]) -> String {
            pairs.map { "\"\($0.0)\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\($0.1)\" } }" }
                .joined(separator: ", ")
        }
        let english = forms([("one", "%lld file"), ("other", "%lld files")])
        let russian = forms([
            ("one", "%lld файл"), ("few", "%lld файла"), ("many", "%lld файлов"), ("other", "%lld файла"),
        ])
        try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "%lld files" : {
                  "localizations" : {
                    "en" : { "variations" : { "plural" : { \(english) } } },
                    "ru" : { "variations" : { "plural" : { \(russian) } } }
                  }
                }
              },
              "version" : "1.0"
            }

            """, to: "r/Catalog.xcstrings")
        return root.path + "/r"
    }

    static func snapshot(_ resources: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in ["ru.lproj/Localizable.stringsdict", "Catalog.xcstrings"] {
            files[path] = try #require(FileManager.default.contents(atPath: resources + "/" + path))
        }
        return files
    }

    @Test(.enabled(if: hasTranslateToolkit, "translate-toolkit (xliff2po) is not installed: skipped"))
    func pluralFormsComeBackThroughXliff2po() throws {
        let root = try TemporaryDirectory()
        let resources = try Self.project(in: root)
        let before = try Self.snapshot(resources)
        let xliff = root.path + "/ru.xliff"
        let exported = try L10nctl.run("export", resources, "--lang", "ru", "--output", xliff)
        #expect(exported.status == 0, "\(exported.stderr)")
        let po = root.path + "/ru_tt.po"
        let converted = try ProcessRunner.run(
            "/usr/bin/xliff2po", ["--progress=none", xliff, po], environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(converted.status == 0, "\(converted.stderr)")
        let text = try String(contentsOfFile: po, encoding: .utf8)
        #expect(text.contains("%7C"), "the catalog's ids are percent-encoded references:\n\(text)")

        let untouched = try L10nctl.run("import", resources, po, "--lang", "ru")
        #expect(untouched.status == 0 && untouched.stderr.contains("0 values changed"), "\(untouched.stderr)")
        #expect(try Self.snapshot(resources) == before)

        try text.replacing("msgstr \"%ld дней\"", with: "msgstr \"%ld суток\"")
            .replacing("msgstr \"%lld файлов\"", with: "msgstr \"%lld файликов\"")
            .write(toFile: po, atomically: true, encoding: .utf8)
        let edited = try L10nctl.run("import", resources, po, "--lang", "ru")
        #expect(edited.status == 0 && edited.stderr.contains("2 values changed"), "\(edited.stderr)")
        let plist = try String(contentsOfFile: resources + "/ru.lproj/Localizable.stringsdict", encoding: .utf8)
        #expect(plist == Self.plist("%ld день", "%ld дня", "%ld суток", "%ld дня"))
        let catalog = try String(contentsOfFile: resources + "/Catalog.xcstrings", encoding: .utf8)
        #expect(catalog.contains("\"value\" : \"%lld файликов\"") && !catalog.contains("%lld файлов"))
    }
}
