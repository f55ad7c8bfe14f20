import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Every lint rule finds a case seeded into a copy of a shared corpus's real files (issue 23:
/// "every lint rule finds its seeded cases on the shared corpora"), at the seeded file and
/// line, under its own rule id. The rules that need a String Catalog (the corpora have none)
/// are seeded into one written beside the corpus's tables.
@Suite struct LintSeededCorpusTests {
    /// Where a seeded case must be reported.
    struct Seed: CustomStringConvertible {
        var rule: LintRule
        var file: String
        var line: Int
        var description: String {
            "\(rule.rawValue) at \(file.split(separator: "/").suffix(2).joined(separator: "/")):\(line)"
        }
    }

    /// The 1-based line of the first line of `text` containing `marker`.
    static func line(of marker: String, in text: String) throws -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(marker) }, "no \(marker)") + 1
    }

    /// A `.stringsdict` entry `key` of one variable `n` with `forms`, formatted by `format`.
    static func pluralEntry(_ key: String, format: String = "%#@n@", _ forms: [(String, String)]) -> String {
        """
            <key>\(key)</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>\(format)</string>
                <key>n</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>ld</string>
        \(forms.map { "            <key>\($0.0)</key>\n            <string>\($0.1)</string>" }.joined(separator: "\n"))
                </dict>
            </dict>

        """
    }

    /// `entries` added at the end of a `.stringsdict` file's root dictionary.
    static func appending(_ entries: String, to plist: String) throws -> String {
        let end = try #require(plist.range(of: "</dict>", options: .backwards))
        return plist[..<end.lowerBound] + entries + plist[end.lowerBound...]
    }

    @Test func everyRuleFindsItsSeededCaseAtItsLine() throws {
        let resources = "corpus/mastodon-ios/MastodonSDK/Sources/MastodonLocalization/Resources"
        guard let source = PackagePaths.shared(resources) else {
            print("skipped: ../shared/\(resources) is absent")
            return
        }
        let root = try TemporaryDirectory()
        let copy = root.path + "/Resources"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        var seeds: [Seed] = []

        // The German table: values of words replaced, one rule each.
        let enStrings = copy + "/en.lproj/Localizable.strings"
        let deStrings = copy + "/de.lproj/Localizable.strings"
        let enText = try String(contentsOfFile: enStrings, encoding: .utf8)
        var english: [String: String] = [:]
        let table = try StringsParser.parseTable(Array(enText.utf8), file: enStrings)
        for position in table.spans.indices { english[table.key(at: position)] = table.value(at: position) }
        var enLines = enText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines = try String(contentsOfFile: deStrings, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func key(_ line: String) -> String? {
            guard line.hasPrefix("\""), let end = line.range(of: "\" = \"") else { return nil }
            let key = String(line[line.index(after: line.startIndex)..<end.lowerBound])
            return key.contains("\\") ? nil : key
        }
        let textSeeds: [(LintRule, (String) -> String)] = [
            (.unchangedFromSource, { $0 }),
            (.edgeWhitespace, { _ in "Seeded text " }),
            (.newlineCount, { _ in "Seeded\\ntext" }),
            (.doubleSpace, { _ in "Seeded  text" }),
            (.urlMismatch, { _ in "Seeded https://example.com/seeded" }),
            (.htmlTagMismatch, { _ in "Seeded <b>text</b>" }),
            (.emptyValue, { _ in "" }),
            (.placeholderMismatch, { _ in "Seeded %@ text" }),
            (.formatWidth, { _ in "Seeded %5000@ text" }),
            (.untranslated, { _ in "" }),
            (.percentSign, { _ in "Seeded 100% erledigt" }),
        ]
        var next = textSeeds.makeIterator()
        var seed = next.next()
        for (index, line) in lines.enumerated() {
            guard let (rule, value) = seed, let key = key(line), let text = english[key],
                text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == " " }),
                text.split(separator: " ").count >= 3, !line.contains("= \"\(text)\"")
            else { continue }
            switch rule {
            case .untranslated:
                // The key's line is emptied (the line numbers stay): missing keys are placed
                // at the file's start.
                lines[index] = ""
                seeds.append(Seed(rule: rule, file: deStrings, line: 1))
            case .percentSign:
                // A percent sign needs a format: English writes it `%%`.
                let enIndex = try #require(enLines.firstIndex { $0.hasPrefix("\"\(key)\" = ") })
                enLines[enIndex] = "\"\(key)\" = \"\(text) 100%% done\";"
                lines[index] = "\"\(key)\" = \"\(value(text))\";"
                seeds.append(Seed(rule: rule, file: deStrings, line: index + 1))
            default:
                lines[index] = "\"\(key)\" = \"\(value(text))\";"
                seeds.append(Seed(rule: rule, file: deStrings, line: index + 1))
            }
            seed = next.next()
        }
        #expect(seed == nil, "not every text rule was seeded: \(seeds)")
        // `%ld` written `%d`.
        let lengthIndex = try #require(lines.firstIndex { key($0) != nil && $0.contains("%ld") })
        lines[lengthIndex] = lines[lengthIndex].replacing("%ld", with: "%d")
        seeds.append(Seed(rule: .lengthModifier, file: deStrings, line: lengthIndex + 1))
        // A key twice, one English lacks, an array value, and a stray `=` that ends the parse.
        let someKey = try #require(lines.lazy.compactMap(key).first)
        while lines.last == "" { lines.removeLast() }
        lines.append("\"\(someKey)\" = \"Zweimal\";")
        seeds.append(Seed(rule: .duplicateKey, file: deStrings, line: lines.count))
        lines.append("\"Seeded.Obsolete\" = \"Veraltet\";")
        seeds.append(Seed(rule: .obsoleteKey, file: deStrings, line: lines.count))
        lines.append("\"Seeded.Array\" = (\"eins\", \"zwei\");")
        seeds.append(Seed(rule: .nonStringValue, file: deStrings, line: lines.count))
        lines.append("=")
        seeds.append(Seed(rule: .ignoredRest, file: deStrings, line: lines.count))
        lines.append("\"Seeded.Lost\" = \"Verloren\";\n")
        try lines.joined(separator: "\n").write(toFile: deStrings, atomically: true, encoding: .utf8)
        try enLines.joined(separator: "\n").write(toFile: enStrings, atomically: true, encoding: .utf8)

        // The German plurals: a form missing, `other` missing, a variable never defined.
        let enDict = copy + "/en.lproj/Localizable.stringsdict"
        let deDict = copy + "/de.lproj/Localizable.stringsdict"
        let bothForms = [("one", "%ld seeded item"), ("other", "%ld seeded items")]
        try Self.appending(
            Self.pluralEntry("seeded.forms", bothForms) + Self.pluralEntry("seeded.other", bothForms)
                + Self.pluralEntry("seeded.undefined", bothForms),
            to: try String(contentsOfFile: enDict, encoding: .utf8)
        ).write(toFile: enDict, atomically: true, encoding: .utf8)
        let deDictText = try Self.appending(
            Self.pluralEntry("seeded.forms", [("other", "%ld gesäte Dinge")])
                + Self.pluralEntry("seeded.other", [("one", "%ld gesätes Ding")])
                + Self.pluralEntry("seeded.undefined", format: "%#@missing@", bothForms),
            to: try String(contentsOfFile: deDict, encoding: .utf8))
        try deDictText.write(toFile: deDict, atomically: true, encoding: .utf8)
        let formsLine = try Self.line(of: "<key>seeded.forms</key>", in: deDictText)
        let otherLine = try Self.line(of: "<key>seeded.other</key>", in: deDictText)
        let undefinedLine = try Self.line(of: "<key>seeded.undefined</key>", in: deDictText)
        // A variable's findings are at its `<key>n</key>`, 4 lines below the entry's key; an
        // entry left out is at its key.
        seeds.append(Seed(rule: .pluralForms, file: deDict, line: formsLine + 4))
        seeds.append(Seed(rule: .incompleteEntry, file: deDict, line: otherLine + 4))
        seeds.append(Seed(rule: .badEntry, file: deDict, line: undefinedLine))

        // Files: one that is no property list, one emptied, and a folder the served one shadows.
        let broken = try root.write("not a property list\n", to: "Resources/de.lproj/Seeded.stringsdict")
        seeds.append(Seed(rule: .file, file: broken, line: 1))
        let empty = try root.write("", to: "Resources/de.lproj/Seeded.strings")
        seeds.append(Seed(rule: .emptyFile, file: empty, line: 1))
        let shadowed = try root.write(
            try String(contentsOfFile: copy + "/zh-Hant.lproj/Localizable.strings", encoding: .utf8),
            to: "Resources/zh_Hant.lproj/Localizable.strings")
        seeds.append(Seed(rule: .shadowedFolder, file: shadowed, line: 1))
        // A folder whose name is no language tag: its files are never served; the finding is
        // at the folder.
        let misnamed = try root.write("\"Seeded\" = \"Gesät\";\n", to: "Resources/de_DE-typo.lproj/Localizable.strings")
        seeds.append(Seed(rule: .skippedName, file: (misnamed as NSString).deletingLastPathComponent, line: 1))

        // A String Catalog beside the tables: a German unit `new`, one `needs_review`.
        let catalogText = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Seeded new" : {
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "new", "value" : "Neu gesät" } }
                  }
                },
                "Seeded review" : {
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Zu prüfen" } }
                  }
                }
              },
              "version" : "1.0"
            }

            """
        let catalog = try root.write(catalogText, to: "Resources/Seeded.xcstrings")
        seeds.append(Seed(rule: .reviewState, file: catalog, line: try Self.line(of: "Neu gesät", in: catalogText)))
        seeds.append(
            Seed(rule: .outdatedTranslation, file: catalog, line: try Self.line(of: "Zu prüfen", in: catalogText)))

        #expect(Set(seeds.map(\.rule)) == Set(LintRule.allCases), "a rule without a seed")
        let findings = ResourceLinter.lint(paths: [copy], options: LintOptions())
        for seed in seeds {
            let found = findings.contains {
                $0.rule == seed.rule && $0.location.file == seed.file && $0.location.line == seed.line
            }
            let same = findings.filter { $0.rule == seed.rule && $0.location.file == seed.file }
            #expect(found, "\(seed) not found; that rule there: \(same.prefix(5))")
        }
    }
}
