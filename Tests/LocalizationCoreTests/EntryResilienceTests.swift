import Foundation
import LocalizationCore
import TestSupport
import Testing

/// One bad entry never costs a file: the rest is served, and lint names every bad entry
/// at its own line and column.
@Suite struct EntryResilienceTests {
    /// A Russian file: `files` lacks `other` (Foundation still serves it), `broken` has a
    /// form that is not a string, `undefined` names a variable it never defines, and two
    /// well-formed entries around them.
    static let russian = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(pluralEntry("%d apples", variable: "apples", forms: [
            ("one", "%d яблоко"), ("few", "%d яблока"), ("many", "%d яблок"), ("other", "%d яблока"),
        ]))
        \(pluralEntry("%d files", variable: "files", forms: [("one", "%d файл"), ("few", "%d файла"), ("many", "%d файлов")]))
        \t<key>broken</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@n@</string>
        \t\t<key>n</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>other</key>
        \t\t\t<integer>3</integer>
        \t\t</dict>
        \t</dict>
        \t<key>undefined</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@missing@</string>
        \t</dict>
        \t<key>plain</key>
        \t<string>Просто</string>
        </dict>
        </plist>
        """

    /// A one-variable plural entry as Xcode writes it, one element a line, tab-indented.
    static func pluralEntry(_ key: String, variable: String, forms: [(String, String)]) -> String {
        let formLines = forms.flatMap { ["\t\t\t<key>\($0.0)</key>", "\t\t\t<string>\($0.1)</string>"] }
        let lines =
            [
                "<key>\(key)</key>", "\t<dict>", "\t\t<key>NSStringLocalizedFormatKey</key>",
                "\t\t<string>%#@\(variable)@</string>", "\t\t<key>\(variable)</key>", "\t\t<dict>",
                "\t\t\t<key>NSStringFormatSpecTypeKey</key>", "\t\t\t<string>NSStringPluralRuleType</string>",
                "\t\t\t<key>NSStringFormatValueTypeKey</key>", "\t\t\t<string>d</string>",
            ] + formLines + ["\t\t</dict>", "\t</dict>"]
        return "\t" + lines.joined(separator: "\n")
    }

    func line(of needle: String, in text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }! + 1
    }

    @Test func aBadEntryCostsOnlyItself() throws {
        let (entries, problems) = try StringsDictReader.read(Array(Self.russian.utf8), file: "ru.stringsdict")
        #expect(Set(entries.keys) == ["%d apples", "%d files", "plain"])
        #expect(problems.count == 3)
        #expect(problems.filter(\.isEntryLost).count == 2)
        let rules = PluralRules.cldr(for: LanguageTag(language: "ru"))
        let files = try #require(entries["%d files"])
        // Served as Foundation serves it: 21 takes `one`, 3 `few`, and `many` stands in for other.
        #expect(files.value(for: .count(PluralOperands(21)), rules: rules) == "%d файл")
        #expect(files.value(for: .count(PluralOperands(3)), rules: rules) == "%d файла")
        // `other`, which no whole number takes in Russian (`%d` prints 1.5 as 1 and selects
        // by it, docs/PLURALS.md): the plain value.
        #expect(files.value == "%d файлов")
        #expect(entries["%d apples"]?.value(for: .count(PluralOperands(21)), rules: rules) == "%d яблоко")
    }

    @Test func servedFromFilesAndAtEveryEntrysLine() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("ru.lproj/Localizable.stringsdict", Self.russian)
        try directory.write("en.lproj/Localizable.strings", "\"plain\" = \"Plain\";\n\"%d files\" = \"%d files\";")
        let resources = ResourceSet.load(roots: [directory.path])
        // The two entries left out are reported; the one served without `other` is not an error.
        let lostLines = [
            line(of: "<integer>3</integer>", in: Self.russian) - 1, line(of: "<key>undefined</key>", in: Self.russian),
        ]
        #expect(resources.errors.map(\.location.line).sorted() == lostLines, "\(resources.errors)")
        let russian = [try LanguageTag("ru")]
        #expect(resources.lookup("plain", languages: russian).value == "Просто")
        #expect(resources.lookup("%d files", languages: russian, plural: .count(PluralOperands(21))).value == "%d файл")
        #expect(resources.lookup("broken", languages: russian).found == false)

        let findings = ResourceLinter.lint(paths: [path])
        let text = Self.russian
        // Each at its own key: the variable, the bad form, the entry.
        let expected: [(line: Int, severity: LintFinding.Severity)] = [
            (line(of: "<key>files</key>", in: text), .warning),
            (line(of: "<integer>3</integer>", in: text) - 1, .error),
            (line(of: "<key>undefined</key>", in: text), .error),
        ]
        for (line, severity) in expected {
            #expect(
                findings.contains { $0.location.line == line && $0.severity == severity && $0.location.column > 1 },
                "\(severity) at \(line): \(findings)")
        }
        #expect(!findings.contains { $0.location.line == 1 && $0.location.column == 1 && $0.severity == .error })
    }

    static let catalog = """
        {
          "sourceLanguage" : "de",
          "strings" : {
            "Nur deutsch" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Nur auf Deutsch" } }
              }
            },
            "Beide" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Beide %@" } },
                "fr" : { "stringUnit" : { "state" : "translated", "value" : "Les deux %d" } },
                "ja" : { "stringUnit" : { "state" : "translated" } }
              }
            },
            "Kaputt" : {
              "localizations" : {
                "de" : { "variations" : { "plural" : { "one" : { "stringUnit" : { "value" : "x" } } } } },
                "fr" : { "stringUnit" : { "state" : "new", "value" : "Cassé" } }
              }
            },
            "Schlecht" : 7
          },
          "version" : "1.0"
        }
        """

    @Test func aCatalogsSourceLanguageIsItsFallbackAndBadLocalizationsCostOnlyThemselves() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("Localizable.xcstrings", Self.catalog)
        try directory.write("en.lproj/Other.strings", "\"x\" = \"y\";")
        let resources = ResourceSet.load(roots: [directory.path])
        // The de plural without `other` is served (its `one` standing in), so it is no error.
        #expect(resources.errors.count == 2, "\(resources.errors)")
        let french = [try LanguageTag("fr")]
        let onlyGerman = resources.lookup("Nur deutsch", languages: french)
        #expect(onlyGerman.value == "Nur auf Deutsch")
        #expect(onlyGerman.language?.identifier == "de")
        #expect(resources.lookup("Kaputt", languages: french).value == "Cassé")
        // `ja`'s unit has no value: only that localization is lost; ja falls to the source.
        #expect(resources.lookup("Beide", languages: [try LanguageTag("ja")]).value == "Beide %@")

        let findings = ResourceLinter.lint(paths: [path])
        let text = Self.catalog
        for needle in ["\"ja\" : { \"stringUnit\" : { \"state\" : \"translated\" } }", "\"Schlecht\" : 7"] {
            let line = line(of: needle, in: text)
            #expect(findings.contains { $0.location.line == line && $0.severity == .error }, "\(needle): \(findings)")
        }
        // The de plural without `other` is a warning at its own line, and the fr mismatch an error.
        #expect(
            findings.contains {
                $0.location.line == line(of: "\"variations\" : { \"plural\"", in: text) && $0.severity == .warning
            })
        #expect(
            findings.contains {
                $0.location.line == line(of: "\"Les deux %d\"", in: text) && $0.message.contains("Beide")
            }, "\(findings)")
    }
}
