import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Import can add what a file lacks (issue 23 item 4): a String Catalog's first
/// localizations in a language, and `.stringsdict` entries and files, each written as the
/// file writes the rest; through gettext's own tools (`msgmerge`, `msgfmt`) and back.
@Suite struct ImportAddsTests {
    let l10nctl = PackagePaths.executable("l10nctl")
    static var hasGettext: Bool {
        ["/usr/bin/msgmerge", "/usr/bin/msgfmt"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func run(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: arguments)
    }

    /// `po` with each message's empty `msgstr` (or `msgstr[k]`) filled from `translations`,
    /// by `msgid` (then `k`).
    static func fill(_ po: String, _ translations: [String: [String]]) -> String {
        po.components(separatedBy: "\n\n").map { block in
            guard let id = block.split(separator: "\n").first(where: { $0.hasPrefix("msgid \"") }),
                let values = translations[String(id.dropFirst(7).dropLast())]
            else { return block }
            var filled = block.replacing("msgstr \"\"", with: "msgstr \"\(values[0])\"")
            for (index, value) in values.enumerated() {
                filled = filled.replacing("msgstr[\(index)] \"\"", with: "msgstr[\(index)] \"\(value)\"")
            }
            return filled
        }.joined(separator: "\n\n")
    }

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "%lld files" : {
              "localizations" : {
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "%lld file"
                        }
                      },
                      "other" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "%lld files"
                        }
                      }
                    }
                  }
                }
              }
            },
            "Open" : {
              "localizations" : {
                "fr" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Ouvrir"
                  }
                }
              }
            },
            "Save" : {

            }
          },
          "version" : "1.0"
        }
        """

    @Test(.enabled(if: hasGettext, "gettext (msgmerge, msgfmt) is not installed: skipped"))
    func aCatalogGetsItsFirstLocalizationsInALanguageThroughMsgmerge() throws {
        let root = try TemporaryDirectory()
        let path = try root.write(Self.catalog, to: "r/Localizable.xcstrings")
        let template = root.path + "/de.pot.po"
        #expect(try run("export", root.path + "/r", "--lang", "de", "--output", template).status == 0)
        // The translator's file, merged into the export as a translation team would.
        let translated = try root.write(
            Self.fill(
                try String(contentsOfFile: template, encoding: .utf8),
                ["Open": ["Öffnen"], "Save": ["Sichern"], "%lld file": ["%lld Datei", "%lld Dateien"]]),
            to: "translator.po")
        let merged = root.path + "/de.po"
        let merge = try ProcessRunner.run("/usr/bin/msgmerge", ["--quiet", "-o", merged, translated, template])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", merged]).status == 0)

        let result = try run("import", root.path + "/r", merged)
        #expect(result.status == 0 && result.stderr.contains("4 values changed in 1 file"), "\(result)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Xcode's layout: two-space indents, " : ", keys sorted (de before en, before fr).
        #expect(
            text.contains(
                """
                    "%lld files" : {
                      "localizations" : {
                        "de" : {
                          "variations" : {
                            "plural" : {
                              "one" : {
                                "stringUnit" : {
                                  "state" : "translated",
                                  "value" : "%lld Datei"
                                }
                              },
                              "other" : {
                                "stringUnit" : {
                                  "state" : "translated",
                                  "value" : "%lld Dateien"
                                }
                              }
                            }
                          }
                        },
                        "en" : {
                """), "\(text)")
        #expect(
            text.contains(
                """
                    "Save" : {
                      "localizations" : {
                        "de" : {
                          "stringUnit" : {
                            "state" : "translated",
                            "value" : "Sichern"
                          }
                        }
                      }
                    }
                """), "\(text)")
        #expect(
            text.contains(
                "\"de\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            \"value\" : \"Öffnen\"\n          }\n        },\n        \"fr\""
            ), "\(text)")
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
        // Served, linted and exported as translated; imported again, nothing changes.
        #expect(try run("get", "Save", "--lang", "de", "--resources", root.path + "/r").stdout == "Sichern\n")
        let lint = try run("lint", root.path + "/r")
        #expect(
            !lint.stdout.contains("no de localization") && lint.stdout.contains("no fr localization"), "\(lint.stdout)")
        let again = try run("import", root.path + "/r", merged)
        let unchanged = try String(contentsOfFile: path, encoding: .utf8)
        #expect(again.status == 0 && unchanged == text, "\(again)")
        let reexport = root.path + "/again.po"
        #expect(try run("export", root.path + "/r", "--lang", "de", "--output", reexport).status == 0)
        let exported = try String(contentsOfFile: reexport, encoding: .utf8)
        #expect(exported.contains("msgstr[1] \"%lld Dateien\"") && !exported.contains("fuzzy"), "\(exported)")
    }

    static func stringsDict(_ entries: [(key: String, format: String, type: String, forms: [(String, String)])])
        -> String
    {
        let body = entries.map { entry in
            """
            \t<key>\(entry.key)</key>
            \t<dict>
            \t\t<key>NSStringLocalizedFormatKey</key>
            \t\t<string>\(entry.format)</string>
            \t\t<key>count</key>
            \t\t<dict>
            \t\t\t<key>NSStringFormatSpecTypeKey</key>
            \t\t\t<string>NSStringPluralRuleType</string>
            \t\t\t<key>NSStringFormatValueTypeKey</key>
            \t\t\t<string>\(entry.type)</string>
            \(entry.forms.map { "\t\t\t<key>\($0.0)</key>\n\t\t\t<string>\($0.1)</string>" }.joined(separator: "\n"))
            \t\t</dict>
            \t</dict>
            """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>

            """
    }

    static let english = stringsDict([
        ("files", "%#@count@", "ld", [("one", "%ld file"), ("other", "%ld files")]),
        ("songs", "%#@count@ in %@", "d", [("one", "%d song"), ("other", "%d songs")]),
    ])
    static let russian: [String: [String]] = [
        "%ld file": ["%ld файл", "%ld файла", "%ld файлов", "%ld файла"],
        "%d song": ["%d песня", "%d песни", "%d песен", "%d песни"],
    ]

    @Test(.enabled(if: hasGettext, "gettext (msgmerge, msgfmt) is not installed: skipped"))
    func aMissingStringsdictIsMadeAsTheDevelopmentLanguagesIsWritten() throws {
        let root = try TemporaryDirectory()
        try root.write(Self.english, to: "r/en.lproj/Localizable.stringsdict")
        try root.write("\"x\" = \"y\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"x\" = \"и\";\n", to: "r/ru.lproj/Localizable.strings")
        let po = root.path + "/ru.po"
        #expect(try run("export", root.path + "/r", "--lang", "ru", "--output", po).status == 0)
        try Self.fill(try String(contentsOfFile: po, encoding: .utf8), Self.russian).write(
            toFile: po, atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", po]).status == 0)
        let result = try run("import", root.path + "/r", po)
        #expect(result.status == 0 && result.stderr.contains("8 values changed in 1 file"), "\(result)")
        let made = try String(contentsOfFile: root.path + "/r/ru.lproj/Localizable.stringsdict", encoding: .utf8)
        #expect(
            made
                == Self.stringsDict([
                    (
                        "files", "%#@count@", "ld",
                        [("one", "%ld файл"), ("few", "%ld файла"), ("many", "%ld файлов"), ("other", "%ld файла")]
                    ),
                    (
                        "songs", "%#@count@ in %@", "d",
                        [("one", "%d песня"), ("few", "%d песни"), ("many", "%d песен"), ("other", "%d песни")]
                    ),
                ]), "\(made)")
        let lint = try run("lint", root.path + "/r")
        #expect(lint.status == 0 && lint.stdout.isEmpty, "\(lint)")
        #expect(
            try run("get", "files", "--lang", "ru", "--count", "5", "--resources", root.path + "/r").stdout
                == "5 файлов\n")
        #expect(try run("import", root.path + "/r", po).stderr.contains("0 values changed"))
    }

    @Test(.enabled(if: hasGettext, "gettext (msgmerge, msgfmt) is not installed: skipped"))
    func aStringsdictGetsTheEntryItLacksInItsPlace() throws {
        let root = try TemporaryDirectory()
        try root.write(Self.english, to: "r/en.lproj/Localizable.stringsdict")
        // ru has songs only, indented with four spaces.
        let own = Self.stringsDict([
            (
                "songs", "%#@count@ in %@", "d",
                [("one", "%d песня"), ("few", "%d песни"), ("many", "%d песен"), ("other", "%d песни")]
            )
        ]).replacing("\t", with: "    ")
        let path = try root.write(own, to: "r/ru.lproj/Localizable.stringsdict")
        let po = root.path + "/ru.po"
        #expect(try run("export", root.path + "/r", "--lang", "ru", "--output", po).status == 0)
        try Self.fill(try String(contentsOfFile: po, encoding: .utf8), Self.russian).write(
            toFile: po, atomically: true, encoding: .utf8)
        let result = try run("import", root.path + "/r", po)
        #expect(result.status == 0 && result.stderr.contains("4 values changed in 1 file"), "\(result)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text
                == Self.stringsDict([
                    (
                        "files", "%#@count@", "ld",
                        [("one", "%ld файл"), ("few", "%ld файла"), ("many", "%ld файлов"), ("other", "%ld файла")]
                    ),
                    (
                        "songs", "%#@count@ in %@", "d",
                        [("one", "%d песня"), ("few", "%d песни"), ("many", "%d песен"), ("other", "%d песни")]
                    ),
                ]).replacing("\t", with: "    "), "\(text)")
    }
}
