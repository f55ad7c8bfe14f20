import Foundation
import LocalizationCore
import TestSupport
import Testing

/// The lint rules Weblate and `pofilter` have and lint lacked (issue 23, item 6):
/// `unchanged-from-source`, `outdated-translation`, `edge-whitespace`, `newline-count`,
/// `double-space`, `url-mismatch`, `html-tag-mismatch` and `length-modifier`, on hand-made
/// files and seeded into copies of the shared corpora.
@Suite struct LintTextRulesTests {
    static let textRules: Set<LintRule> = [
        .unchangedFromSource, .outdatedTranslation, .edgeWhitespace, .newlineCount, .doubleSpace, .urlMismatch,
        .htmlTagMismatch, .lengthModifier,
    ]

    func lint(_ paths: [String], _ options: LintOptions = LintOptions()) -> [LintFinding] {
        ResourceLinter.lint(paths: paths, options: options).filter { Self.textRules.contains($0.rule) }
    }

    /// The finding's file as `de.lproj/Localizable.strings`.
    func file(of finding: LintFinding) -> String {
        (finding.location.file ?? "").split(separator: "/").suffix(2).joined(separator: "/")
    }

    /// `rule@line` for each finding, sorted.
    func summary(_ findings: [LintFinding]) -> [String] {
        findings.map { "\($0.rule.rawValue)@\($0.location.line)" }.sorted()
    }

    @Test func eachRuleFindsItsCaseAndPassesTheRightOnes() throws {
        let root = try TemporaryDirectory()
        let english: [(String, String)] = [
            ("copy", "Open the file"), ("term", "OK"), ("trailing", "Name: "), ("leading", "x"),
            ("breaks", "one\ntwo"), ("double", "one two"), ("url", "See https://iina.io."),
            ("tags", "Report via <a href=\\\"x\\\">GitHub</a>."), ("width", "%ld files"),
            ("cjk", "Name: "), ("prose", "Use <none> here"), ("fine", "%d files at https://iina.io"),
        ]
        let german: [(String, String)] = [
            ("copy", "Open the file"), ("term", "OK"), ("trailing", "Name:"), ("leading", " x"),
            ("breaks", "eins zwei"), ("double", "eins  zwei"), ("url", "Siehe https://iina.io/de."),
            ("tags", "Melde via GitHub</a>."), ("width", "%d Dateien"),
            ("cjk", "名称："), ("prose", "Nimm <keine> hier"), ("fine", "%d Dateien bei https://iina.io"),
        ]
        func file(_ pairs: [(String, String)]) -> String {
            pairs.map { "\"\($0.0)\" = \"\($0.1.replacing("\n", with: "\\n"))\";" }.joined(separator: "\n") + "\n"
        }
        try root.write(file(english), to: "en.lproj/Localizable.strings")
        try root.write(file(german), to: "de.lproj/Localizable.strings")
        let findings = lint([root.path])
        #expect(
            summary(findings) == [
                "double-space@6", "edge-whitespace@3", "edge-whitespace@4", "html-tag-mismatch@8",
                "length-modifier@9", "newline-count@5", "unchanged-from-source@1", "url-mismatch@7",
            ], "\(findings)")
        #expect(findings.first { $0.rule == .unchangedFromSource }?.severity == .note)
        #expect(findings.allSatisfy { $0.related?.file?.hasSuffix("en.lproj/Localizable.strings") == true })
        #expect(findings.allSatisfy { $0.key != nil })
        let width = try #require(findings.first { $0.rule == .lengthModifier })
        #expect(width.message.contains("%d where the development language has %ld"), "\(width)")
        let url = try #require(findings.first { $0.rule == .urlMismatch })
        #expect(url.message.contains("lacks https://iina.io, has https://iina.io/de instead"), "\(url)")
    }

    @Test func aVariantOfTheDevelopmentLanguageAndATermMostLanguagesKeepAreNotUnchanged() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"brand\" = \"Dolby Vision\";\n\"save\" = \"Save the file\";\n", to: "en.lproj/Localizable.strings")
        try root.write(
            "\"brand\" = \"Dolby Vision\";\n\"save\" = \"Save the file\";\n", to: "en-GB.lproj/Localizable.strings")
        for (language, save) in [("de", "Datei sichern"), ("fr", "Enregistrer"), ("es", "Guardar"), ("it", "Salva")] {
            try root.write(
                "\"brand\" = \"Dolby Vision\";\n\"save\" = \"\(save)\";\n", to: "\(language).lproj/Localizable.strings")
        }
        try root.write(
            "\"brand\" = \"Dolby Vision\";\n\"save\" = \"Save the file\";\n", to: "ne.lproj/Localizable.strings")
        let findings = lint([root.path])
        // Only ne's copy of "save": en-GB writes English, and every language keeps the name.
        #expect(
            findings.map { "\(file(of: $0))@\($0.location.line)" }
                == ["ne.lproj/Localizable.strings@2"], "\(findings)")
    }

    /// A sentence most languages leave as English is a sentence most never translated: only a
    /// short text (two words at most, no sentence punctuation) is a term every language keeps.
    /// IINA's `Failed to load the page.` was in English in 42 of 52 languages and reported in none.
    @Test func aSentenceMostLanguagesLeaveUnchangedIsStillReported() throws {
        let root = try TemporaryDirectory()
        let english = "\"page\" = \"Failed to load the page.\";\n\"brand\" = \"Dolby Vision\";\n"
        try root.write(english, to: "en.lproj/Plugin.strings")
        try root.write(
            "\"page\" = \"Seite nicht geladen.\";\n\"brand\" = \"Dolby Vision\";\n", to: "de.lproj/Plugin.strings")
        for language in ["ne", "az", "kn", "ta"] { try root.write(english, to: "\(language).lproj/Plugin.strings") }
        let findings = lint([root.path])
        #expect(
            findings.map { "\($0.location.file!.split(separator: "/").suffix(2).first!):\($0.key!)" }.sorted() == [
                "az.lproj:page", "kn.lproj:page", "ne.lproj:page", "ta.lproj:page",
            ], "\(findings)")
    }

    /// A single word a language keeps in a table it translates (Dutch `Help` in its main menu)
    /// is its word in a table it left in English too; a language that translates neither
    /// table has no such word.
    @Test func aWordTheLanguageKeepsInATranslatedTableIsItsOwnElsewhere() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"help\" = \"Help\";\n\"open\" = \"Open file\";\n\"close\" = \"Close window\";\n",
            to: "en.lproj/MainMenu.strings")
        try root.write(
            "\"help\" = \"Help\";\n\"open\" = \"Bestand openen\";\n\"close\" = \"Venster sluiten\";\n",
            to: "nl.lproj/MainMenu.strings")
        try root.write(
            "\"help\" = \"Help\";\n\"open\" = \"Open file\";\n\"close\" = \"Close window\";\n",
            to: "ne.lproj/MainMenu.strings")
        let plugin = "\"help\" = \"Help\";\n\"install\" = \"Install a plugin\";\n"
        try root.write(plugin, to: "en.lproj/Plugin.strings")
        try root.write(plugin, to: "nl.lproj/Plugin.strings")
        try root.write(plugin, to: "ne.lproj/Plugin.strings")
        let findings = lint([root.path])
        #expect(
            findings.map { file(of: $0) + ":" + $0.key! }
                .sorted() == [
                    "ne.lproj/MainMenu.strings:close", "ne.lproj/MainMenu.strings:help",
                    "ne.lproj/MainMenu.strings:open",
                    "ne.lproj/Plugin.strings:help", "ne.lproj/Plugin.strings:install",
                    "nl.lproj/Plugin.strings:install",
                ], "\(findings)")
    }

    /// Addresses, handles, domains, paths and copyright notices are written the same in every
    /// language: Mastodon's `another@follower.social`, IINA's `/path/to/screenshot/folder`.
    @Test func addressesPathsAndCopyrightNoticesAreNotUnchanged() throws {
        let root = try TemporaryDirectory()
        let english =
            [
                ("handle", "@johnMastodon@no-such.account"), ("mail", "another@follower.social"),
                ("path", "/path/to/screenshot/folder"),
                ("legal", "Copyright © 2017 Collider LI, et al. Released under GPLv3."),
                ("copy", "Open the screenshot folder"),
            ].map { "\"\($0.0)\" = \"\($0.1)\";" }.joined(separator: "\n") + "\n"
        try root.write(english, to: "en.lproj/Localizable.strings")
        try root.write(english, to: "ne.lproj/Localizable.strings")
        let findings = lint([root.path])
        #expect(findings.map(\.key) == ["copy"], "\(findings)")
    }

    @Test func aMostlyTranslatedFileKeepsItsSingleWordsAMostlyCopiedOneDoesNot() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"a\" = \"Audio\";\n\"b\" = \"Open file\";\n\"c\" = \"Close file\";\n", to: "en.lproj/Localizable.strings")
        try root.write(
            "\"a\" = \"Audio\";\n\"b\" = \"Datei öffnen\";\n\"c\" = \"Datei schließen\";\n",
            to: "de.lproj/Localizable.strings")
        try root.write(
            "\"a\" = \"Audio\";\n\"b\" = \"Open file\";\n\"c\" = \"Close file\";\n", to: "ne.lproj/Localizable.strings")
        let findings = lint([root.path])
        #expect(
            findings.map { "\(file(of: $0))@\($0.location.line)" }
                == [
                    "ne.lproj/Localizable.strings@1", "ne.lproj/Localizable.strings@2",
                    "ne.lproj/Localizable.strings@3",
                ],
            "\(findings)")
    }

    /// Corpus cases (`Tests/Fixtures/UnchangedFromSource`): a value whose words the language's
    /// own translations use is the language's text too (Dutch `Audio:`, `Website`, Brazilian
    /// `Plugins`); a copy with a word the language never writes is reported, and neither a
    /// stale English text (Bulgarian) nor a short word another language happens to write
    /// (Latvian `to`) makes a copy the language's own.
    @Test func wordsTheLanguageWritesItselfAreNotUnchanged() {
        let root = PackagePaths.root + "/Tests/Fixtures/UnchangedFromSource"
        let findings = lint([root]).filter { $0.rule == .unchangedFromSource }
        let reported = findings.map { "\($0.location.file!.split(separator: "/").suffix(2).first!):\($0.key!)" }
        #expect(
            reported.sorted() == [
                "bg.lproj:file.menu", "bg.lproj:finder.reveal", "lv.lproj:seek.to", "nl.lproj:menu.audio",
            ], "\(findings)")
    }

    /// A String Catalog's languages are read the same way, from the catalog's own translations
    /// (a language that translates one of three keys: its single words are checked).
    @Test func aCatalogsLanguageWritesItsOwnWordsToo() throws {
        let root = try TemporaryDirectory()
        func unit(_ value: String) -> String {
            #"{ "stringUnit" : { "state" : "translated", "value" : "\#(value)" } }"#
        }
        let entries = [
            ("site", "Website", "Website"), ("visit", "Please visit our website", "Bezoek onze website"),
            ("panel", "Show Audio Panel", "Show Audio Panel"),
        ].map { key, english, dutch in
            #""\#(key)" : { "localizations" : { "en" : \#(unit(english)), "nl" : \#(unit(dutch)) } }"#
        }
        let catalog = try root.write(
            #"{ "sourceLanguage" : "en", "strings" : { \#(entries.joined(separator: ", ")) }, "version" : "1.0" }"#,
            to: "Localizable.xcstrings")
        let findings = lint([catalog]).filter { $0.rule == .unchangedFromSource }
        #expect(findings.map(\.key) == ["panel"], "\(findings)")
    }

    @Test func pluralFormsAndCatalogsAreCheckedToo() throws {
        let root = try TemporaryDirectory()
        try root.write(
            LintRulesTests.pluralPlist([("one", "%ld file"), ("other", "%ld files")]),
            to: "en.lproj/Localizable.stringsdict")
        try root.write(
            LintRulesTests.pluralPlist([("one", "%d Datei"), ("other", "%ld Dateien")]),
            to: "de.lproj/Localizable.stringsdict")
        let plural = lint([root.path])
        #expect(summary(plural) == ["length-modifier@8"], "\(plural)")
        #expect(plural.first?.message.contains("form one") == true, "\(plural)")

        let catalog = try root.write(
            """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "greeting" : {
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Hallo  Welt" } },
                    "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello world" } },
                    "fr" : { "stringUnit" : { "state" : "translated", "value" : "Hello world" } }
                  }
                }
              },
              "version" : "1.0"
            }
            """, to: "Other.xcstrings")
        let findings = lint([catalog])
        #expect(
            summary(findings) == ["double-space@6", "outdated-translation@6", "unchanged-from-source@8"],
            "\(findings)")
        #expect(findings.allSatisfy { $0.related?.line == 7 }, "\(findings)")
        #expect(!ResourceLinter.lint(paths: [catalog], options: LintOptions()).contains { $0.rule == .reviewState })
    }

    /// Each rule's seeded case in a copy of IINA's German and Mastodon's Japanese files is
    /// found, and nothing else is added to what lint finds in the untouched copy.
    @Test(arguments: [
        ("corpus/iina", "en.lproj/Localizable.strings", "de.lproj/Localizable.strings"),
        (
            "corpus/mastodon-ios", "MastodonSDK/Sources/MastodonLocalization/Resources/en.lproj/Localizable.strings",
            "MastodonSDK/Sources/MastodonLocalization/Resources/ja.lproj/Localizable.strings"
        ),
    ])
    func seededCasesInTheCorporaAreFound(corpus: String, english: String, translation: String) throws {
        guard let source = PackagePaths.shared(corpus) else {
            print("skipped: ../shared/\(corpus) is absent")
            return
        }
        let root = try TemporaryDirectory()
        let en = try String(contentsOfFile: source + "/" + english, encoding: .utf8)
        let original = try String(contentsOfFile: source + "/" + translation, encoding: .utf8)
        let enPath = try root.write(en, to: "en.lproj/Localizable.strings")
        let path = try root.write(
            original, to: translation.split(separator: "/").suffix(2).joined(separator: "/"))
        let before = Set(lint([root.path]).map { "\($0.rule.rawValue)|\($0.key ?? "")" })

        // The first entries of the translation with a value of words, as the development language's.
        let table = try StringsParser.parseTable(Array(en.utf8), file: enPath)
        var english: [String: String] = [:]
        for position in table.spans.indices { english[table.key(at: position)] = table.value(at: position) }
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var seeded: [String] = []
        var edited = lines
        let seeds: [(LintRule, (String) -> String)] = [
            (.unchangedFromSource, { $0 }),
            (.edgeWhitespace, { _ in "Seeded text " }),
            (.newlineCount, { _ in "Seeded\\ntext" }),
            (.doubleSpace, { _ in "Seeded  text" }),
            (.urlMismatch, { _ in "Seeded https://example.com/seeded" }),
            (.htmlTagMismatch, { _ in "Seeded <b>text</b>" }),
        ]
        var next = seeds.makeIterator()
        var seed = next.next()
        for (index, line) in lines.enumerated() {
            guard let (rule, value) = seed, line.hasPrefix("\""), let end = line.range(of: "\" = \"") else { continue }
            let key = String(line[line.index(after: line.startIndex)..<end.lowerBound])
            guard !key.contains("\\"), let text = english[key],
                text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == " " }),
                text.split(separator: " ").count >= 3, !before.contains(where: { $0.hasSuffix("|" + key) })
            else { continue }
            let escaped = value(text).replacing("\"", with: "\\\"")
            edited[index] = "\"\(key)\" = \"\(escaped)\";"
            seeded.append("\(rule.rawValue)|\(key)")
            seed = next.next()
        }
        #expect(seeded.count == seeds.count, "not every rule was seeded: \(seeded)")
        try edited.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let after = Set(lint([root.path]).map { "\($0.rule.rawValue)|\($0.key ?? "")" })
        #expect(after.subtracting(before) == Set(seeded), "\(after.subtracting(before).sorted())")
    }
}
