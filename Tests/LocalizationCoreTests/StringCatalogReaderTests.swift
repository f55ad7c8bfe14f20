import Foundation
import LocalizationCore
import Testing

@Suite struct StringCatalogReaderTests {
    static func exampleCatalog() throws -> StringCatalog {
        try StringCatalogReader.parse(ExampleResourceFile.bytes("Menu.xcstrings"), file: "Menu.xcstrings")
    }

    @Test func exampleHasItsLanguagesAndVersion() throws {
        let catalog = try Self.exampleCatalog()
        #expect(catalog.sourceLanguage == "en")
        #expect(catalog.version == "1.0")
        #expect(Set(catalog.tables.keys) == ["en", "ja", "de", "fr", "ru"])
    }

    @Test(arguments: [("en", "Open"), ("ja", "開く"), ("de", "Öffnen"), ("fr", "Ouvrir"), ("ru", "Открыть")])
    func plainStringInEveryLanguage(_ language: String, _ value: String) throws {
        let entry = try #require(try Self.exampleCatalog().tables[language]?["Open"])
        #expect(entry == TableEntry(value: value, state: "translated"))
    }

    @Test func pluralVariationBecomesTheUnderscoreVariable() throws {
        let tables = try Self.exampleCatalog().tables
        let english = try #require(tables["en"]?["%lld items"])
        #expect(english.value == "%lld items")
        #expect(english.state == "translated")
        let plural = try #require(english.plural)
        #expect(plural.format == "%#@_@")
        #expect(plural.variables["_"] == .init(valueType: "lld", forms: [.one: "%lld item", .other: "%lld items"]))

        #expect(tables["ru"]?["%lld items"]?.plural?.variables["_"]?.forms.count == 4)
        #expect(tables["ru"]?["%lld items"]?.value == "%lld элемента")
        #expect(tables["ja"]?["%lld items"]?.plural?.variables["_"]?.forms == [.other: "%lld 個の項目"])
        #expect(tables["fr"]?["%lld items"]?.plural?.variables["_"]?.forms[.many] == "%lld d’éléments")
    }

    @Test func deviceVariationPrefersOtherThenMac() throws {
        let tables = try Self.exampleCatalog().tables
        let english = try #require(tables["en"]?["Click to continue"])
        #expect(english.value == "Continue")
        #expect(
            english.deviceVariants == ["iphone": "Tap to continue", "mac": "Click to continue", "other": "Continue"])
        // German names no `other` device: the Mac text stands in.
        #expect(tables["de"]?["Click to continue"]?.value == "Zum Fortfahren klicken")
        #expect(tables["de"]?["Click to continue"]?.deviceVariants.count == 2)
        // One device needing review marks the whole entry.
        #expect(tables["ru"]?["Click to continue"]?.state == "needs_review")
        #expect(tables["fr"]?["Click to continue"]?.state == "translated")
    }

    @Test func statesAreKept() throws {
        let tables = try Self.exampleCatalog().tables
        #expect(tables["de"]?["Settings…"]?.state == "needs_review")
        #expect(tables["fr"]?["Settings…"]?.state == "translated")
        #expect(tables["ja"]?["Rename…"]?.state == "new")
    }

    @Test func substitutionsBecomeVariables() throws {
        let tables = try Self.exampleCatalog().tables
        let english = try #require(tables["en"]?["%lld files in %lld folders"])
        #expect(english.value == "%1$lld files in %2$lld folders")
        let plural = try #require(english.plural)
        #expect(plural.format == "%#@files@ in %#@folders@")
        #expect(
            plural.variables["files"]
                == .init(valueType: "lld", forms: [.one: "%1$lld file", .other: "%1$lld files"], argumentNumber: 1))
        #expect(plural.variables["folders"]?.argumentNumber == 2)
        #expect(tables["ru"]?["%lld files in %lld folders"]?.plural?.variables["files"]?.forms[.few] == "%1$lld файла")
        #expect(tables["ja"]?["%lld files in %lld folders"] == nil)
    }

    @Test func sourceLanguageFallsBackToTheKey() throws {
        let catalog = try Self.exampleCatalog()
        // "Help" has translations but no English: Xcode compiles the key as the English text.
        let help = try #require(catalog.tables["en"]?["Help"])
        #expect(help.value == "Help" && help.isSourceKeyStandIn && help.state == nil)
        #expect(catalog.tables["de"]?["Help"]?.value == "Hilfe")
        // "Quit" is only in English.
        #expect(catalog.tables["en"]?["Quit"]?.value == "Quit l10nd")
        #expect(catalog.tables.filter { $0.value["Quit"] != nil }.map(\.key) == ["en"])
        // "l10nd" must not be translated and has no localization at all.
        #expect(catalog.untranslatableKeys == ["l10nd"])
        #expect(catalog.tables["en"]?["l10nd"]?.value == "l10nd")
        #expect(catalog.tables["en"]?["Quit"]?.isSourceKeyStandIn == false)
        #expect(catalog.tables["ja"]?["l10nd"] == nil)
        #expect(catalog.tables["en"]?.count == 9)
    }

    /// A plural variation without `other` is served as Foundation serves the stringsdict
    /// variable Xcode compiles it into: each count its own category's form, the most general
    /// form standing in for `other`; a warning (not a lost entry) says so.
    @Test func pluralWithoutOtherIsServedWithAStandIn() throws {
        let json = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "%lld files" : {
                  "localizations" : {
                    "ru" : { "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld файл" } },
                      "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld файла" } },
                      "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld файлов" } }
                    } } }
                  }
                }
              },
              "version" : "1.0"
            }
            """
        let (catalog, problems) = try StringCatalogReader.read(Array(json.utf8), file: "Files.xcstrings")
        let entry = try #require(catalog.tables["ru"]?["%lld files"])
        #expect(entry.value == "%lld файлов")
        let rules = PluralRules.cldr(for: try LanguageTag("ru"))
        #expect(entry.value(for: .count(PluralOperands(21)), rules: rules) == "%lld файл")
        #expect(entry.value(for: .count(PluralOperands(3)), rules: rules) == "%lld файла")
        // `%lld` prints 1.5 as 1, so it selects by 1 (docs/PLURALS.md): only the plain value
        // above reaches Russian's `other`, which no whole number takes.
        #expect(entry.value(for: .count(PluralOperands(1.5)), rules: rules) == "%lld файл")
        let warning = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(!warning.isEntryLost)
        #expect(warning.message.contains("no \"other\" form; served from its forms, with \"many\" for other"))
    }

    @Test func deviceVariantMayHoldAPluralAndSubstitutions() throws {
        let json = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "%lld songs by %lld artists" : {
                  "localizations" : {
                    "en" : {
                      "substitutions" : {
                        "artists" : {
                          "argNum" : 2,
                          "formatSpecifier" : "lld",
                          "variations" : { "plural" : {
                            "one" : { "stringUnit" : { "state" : "translated", "value" : "one artist" } },
                            "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg artists" } }
                          } }
                        }
                      },
                      "variations" : {
                        "device" : {
                          "applewatch" : { "stringUnit" : { "state" : "translated", "value" : "%lld ♪" } },
                          "mac" : {
                            "variations" : { "plural" : {
                              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld song by %#@artists@" } },
                              "other" : { "stringUnit" : { "state" : "stale", "value" : "%lld songs by %#@artists@" } }
                            } }
                          }
                        }
                      }
                    }
                  }
                }
              },
              "version" : "1.0"
            }
            """
        let catalog = try StringCatalogReader.parse(Array(json.utf8))
        let entry = try #require(catalog.tables["en"]?["%lld songs by %lld artists"])
        #expect(entry.value == "%lld songs by %2$lld artists")
        #expect(entry.deviceVariants == ["applewatch": "%lld ♪", "mac": "%lld songs by %2$lld artists"])
        #expect(entry.plural?.format == "%#@_@")
        #expect(entry.plural?.variables.keys.sorted() == ["_", "artists"])
        #expect(entry.plural?.variables["_"]?.valueType == "lld")
        #expect(entry.state == "stale")
    }

    /// A broken catalog, a fragment its message must contain, and the text of the line the
    /// error must point at (the first line containing it from the broken key on), or `nil` for 1:1.
    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var message: String
        var pointsAt: String?
        var testDescription: String { name }
    }

    /// `localization` as the `ja` localization of key "broken", after a good key.
    static func catalog(brokenJapanese localization: String) -> String {
        """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "aaa good" : {
              "localizations" : {
                "ja" : { "stringUnit" : { "state" : "translated", "value" : "良い" } }
              }
            },
            "broken" : {
              "localizations" : {
                "en" : { "stringUnit" : { "state" : "translated", "value" : "Broken" } },
                "ja" : \(localization)
              }
            }
          }
        }
        """
    }

    static let malformed: [Malformed] = [
        Malformed(
            name: "string unit without a value",
            json: catalog(brokenJapanese: "{\n\"stringUnit\" : { \"state\" : \"new\" }\n}"),
            message: "\"broken\" (ja): \"stringUnit\" has missing as \"value\"",
            pointsAt: "\"stringUnit\" : { \"state\" : \"new\" }"),
        Malformed(
            name: "localization is a string",
            json: catalog(brokenJapanese: "\"壊れた\""),
            message: "\"broken\" (ja) is a string, expected an object", pointsAt: "\"ja\" : \"壊れた\""),
        Malformed(
            name: "neither unit nor variations",
            json: catalog(brokenJapanese: "{ \"comment\" : \"x\" }"),
            message: "\"broken\" (ja) has neither a \"stringUnit\" nor \"variations\"",
            pointsAt: "\"ja\" : { \"comment\""),
        Malformed(
            name: "empty variations",
            json: catalog(brokenJapanese: "{\n\"variations\" : { }\n}"),
            message: "\"variations\" has no \"plural\" or \"device\"", pointsAt: "\"variations\" : { }"),
        Malformed(
            name: "plural without forms",
            json: catalog(brokenJapanese: "{\n\"variations\" : {\n\"plural\" : { }\n} }"),
            message: "\"broken\" (ja): the plural variation has no form at all", pointsAt: "\"plural\" : { }"),
        Malformed(
            name: "unknown plural category",
            json: catalog(
                brokenJapanese: """
                    {
                    "variations" : {
                    "plural" : {
                    "several" : { "stringUnit" : { "state" : "translated", "value" : "1" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "2" } }
                    } } }
                    """),
            message: "\"several\" is not a plural category", pointsAt: "\"several\" :"),
        Malformed(
            name: "undefined substitution",
            json: catalog(
                brokenJapanese: "{\n\"stringUnit\" : { \"state\" : \"new\", \"value\" : \"%#@count@ 個\" }\n}"),
            message: "\"broken\" (ja): the text uses %#@count@ but there is no substitution named \"count\"",
            pointsAt: "\"ja\" : {"),
        Malformed(
            name: "substitution without plural",
            json: catalog(
                brokenJapanese: """
                    {
                    "stringUnit" : { "state" : "new", "value" : "%#@count@" },
                    "substitutions" : {
                    "count" : { "argNum" : 1, "formatSpecifier" : "lld" }
                    } }
                    """),
            message: "substitution \"count\" has no \"variations\" with a \"plural\"", pointsAt: "\"count\" : {"),
        Malformed(
            name: "argNum not a number",
            json: catalog(
                brokenJapanese: """
                    {
                    "stringUnit" : { "state" : "new", "value" : "%#@count@" },
                    "substitutions" : {
                    "count" : {
                    "argNum" : "one",
                    "variations" : { "plural" : { "other" : { "stringUnit" : { "state" : "new", "value" : "%arg" } } } }
                    } } }
                    """),
            message: "\"argNum\" of substitution \"count\" is a string", pointsAt: "\"argNum\" : \"one\""),
        Malformed(
            name: "state not a string",
            json: catalog(brokenJapanese: "{\n\"stringUnit\" : {\n\"state\" : 3, \"value\" : \"x\" }\n}"),
            message: "\"broken\" (ja): \"state\" is a number", pointsAt: "\"state\" : 3"),
        Malformed(
            name: "key is an array",
            json: "{\n\"sourceLanguage\" : \"en\",\n\"strings\" : {\n\"broken\" : [ ]\n}\n}",
            message: "\"broken\" is an array, expected an object", pointsAt: "\"broken\" : [ ]"),
        Malformed(
            name: "shouldTranslate not a boolean",
            json:
                "{\n\"sourceLanguage\" : \"en\",\n\"strings\" : {\n\"broken\" : {\n\"shouldTranslate\" : \"no\"\n}\n}\n}",
            message: "\"broken\": \"shouldTranslate\" is a string, expected true or false",
            pointsAt: "\"shouldTranslate\""),
        Malformed(
            name: "no source language",
            json: "{\n\"strings\" : { }\n}",
            message: "\"sourceLanguage\" is missing", pointsAt: nil),
        Malformed(
            name: "strings not an object",
            json: "{\n\"sourceLanguage\" : \"en\",\n\"strings\" : [ ]\n}",
            message: "\"strings\" is an array, expected an object of keys", pointsAt: "\"strings\""),
        Malformed(
            name: "top level an array",
            json: "[ ]",
            message: "the top level is an array", pointsAt: nil),
    ]

    @Test(arguments: malformed)
    func malformedCatalogIsAClearError(_ broken: Malformed) throws {
        // A bad key or localization is reported and left out, the rest kept; only a file
        // that is no catalog at all throws.
        let error: ResourceParseError
        let read = Result { () throws(ResourceParseError) in
            try StringCatalogReader.read(Array(broken.json.utf8), file: "Broken.xcstrings")
        }
        switch read {
        case .success(let (catalog, problems)):
            error = try #require(problems.first)
            #expect(problems.count == 1)
            if broken.json.contains("aaa good") {
                #expect(catalog.tables["ja"]?["aaa good"]?.value == "良い")
            }
        case .failure(let fileError):
            error = fileError
        }
        #expect(error.message.contains(broken.message), "\(error)")
        #expect(error.location.file == "Broken.xcstrings")
        // Search from the broken key on: the good key before it has the same inner names.
        let lines = broken.json.split(separator: "\n", omittingEmptySubsequences: false)
        let brokenLine = lines.firstIndex { $0.contains("\"broken\"") } ?? 0
        let expected =
            try broken.pointsAt.map { text in
                try #require(lines[brokenLine...].firstIndex { $0.contains(text) }) + 1
            } ?? 1
        #expect(error.location.line == expected, "\(error)")
    }

    @Test func invalidJSONGivesLineAndColumn() throws {
        let json = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { é }\n}"
        let error = try #require(throws: ResourceParseError.self) {
            try StringCatalogReader.parse(Array(json.utf8), file: "Bad.xcstrings")
        }
        #expect(error.location == SourceLocation(file: "Bad.xcstrings", line: 3, column: 17))
        #expect(error.message.hasPrefix("invalid JSON"))
    }

    /// What `jq`, Python's `json` and Xcode refuse, though Foundation's parser on Linux takes
    /// it: a trailing comma, and a key twice in one object (of which Foundation would keep
    /// one translation and drop the other without a word). Each is an error at its place.
    @Test(arguments: [
        (#"{"sourceLanguage": "en", "strings": {"a": {},}}"#, 1, 45, "trailing comma before '}'"),
        ("{\n  \"sourceLanguage\": \"en\",\n  \"strings\": {},\n}", 3, 16, "trailing comma before '}'"),
        (#"{"sourceLanguage": "en", "strings": {"a": {"x": [1, 2,]}}}"#, 1, 54, "trailing comma before ']'"),
        (
            "{\"sourceLanguage\": \"en\", \"strings\": {\n  \"Open\": {},\n  \"Open\": {}\n}}", 3, 3,
            #"duplicate key "Open" (first at 2:3)"#
        ),
        (#"{"sourceLanguage": "en", "strings": {"A": {}, "\u0041": {}}}"#, 1, 47, #"duplicate key "A""#),
        (#"{"sourceLanguage": "en", "sourceLanguage": "de", "strings": {}}"#, 1, 26, "duplicate key"),
    ])
    func nonStrictJSONIsAnErrorAtItsPlace(json: String, line: Int, column: Int, message: String) throws {
        let error = try #require(throws: ResourceParseError.self) {
            try StringCatalogReader.parse(Array(json.utf8), file: "Bad.xcstrings")
        }
        #expect(error.location == SourceLocation(file: "Bad.xcstrings", line: line, column: column), "\(error)")
        #expect(error.message.hasPrefix("invalid JSON: ") && error.message.contains(message), "\(error)")
    }

    /// Past 16 keys an object's keys are hashed, not compared one by one: a key given twice
    /// is found there too, as written or spelled with an escape, where it is given again.
    @Test(arguments: [#""k7""#, #""\u006b7""#])
    func aKeyTwiceAmongManyIsAnError(again: String) throws {
        let keys = (0..<40).map { #""k\#($0)" : {}"# } + ["\(again) : {}"]
        let json = "{\"sourceLanguage\": \"en\", \"strings\": {\n" + keys.joined(separator: ",\n") + "\n}}"
        let error = try #require(throws: ResourceParseError.self) { try StringCatalogReader.parse(Array(json.utf8)) }
        #expect(error.location.line == 42 && error.location.column == 1, "\(error)")
        #expect(error.message.contains(#"duplicate key "k7" (first at 9:1)"#), "\(error)")
        let distinct = "{\"sourceLanguage\": \"en\", \"strings\": {" + keys.dropLast().joined(separator: ", ") + "}}"
        #expect(try StringCatalogReader.parse(Array(distinct.utf8)).tables["en"]?.count == 40)
    }

    /// The same keys in different objects, commas inside strings, escaped quotes: all fine.
    @Test func strictJSONAcceptsWhatIsValid() throws {
        let json = #"{"sourceLanguage": "en", "strings": {"a,}": {"comment": "x\",]"}, "b": {"comment": "a"}}}"#
        let catalog = try StringCatalogReader.parse(Array(json.utf8))
        #expect(catalog.sourceLanguage == "en")
        for name in ["Menu.xcstrings", "Plurals.xcstrings"] {
            _ = try StringCatalogReader.parse(try ExampleResourceFile.bytes(name))
        }
    }

    @Test func truncatedJSONPointsAtTheEnd() throws {
        let json = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {"
        let error = try #require(throws: ResourceParseError.self) { try StringCatalogReader.parse(Array(json.utf8)) }
        #expect(error.location.line == 3)
        #expect(error.location.column == 16)
    }

    @Test(arguments: [
        BadInput("empty", [UInt8](), "the file is empty"),
        BadInput("blank lines", Array("\n\n  \n".utf8), "the file is empty"),
        BadInput("garbage", [0xFF, 0xFE, 0x00, 0x01, 0x99, 0x80], "invalid JSON"),
        BadInput("a property list", StringsDictReaderTests.plistDocument("<dict/>"), "invalid JSON"),
        BadInput("a bare string", Array("\"en\"".utf8), "the top level is a string"),
        BadInput("a number", Array("12".utf8), "the top level is a number"),
        BadInput("a boolean", Array("true".utf8), "the top level is a boolean"),
        BadInput("nested too deep", Array(String(repeating: "[", count: 100_000).utf8), "invalid JSON"),
    ])
    func notACatalogIsAClearError(_ input: BadInput) throws {
        let error = try #require(throws: ResourceParseError.self) { try StringCatalogReader.parse(input.bytes) }
        #expect(error.message.contains(input.message), "\(error)")
    }

    @Test func everyTruncationOfTheExampleIsAnError() throws {
        let original = try ExampleResourceFile.bytes("Menu.xcstrings")
        let end = try #require(original.lastIndex(of: UInt8(ascii: "}")))
        for length in 0...end {
            #expect(throws: ResourceParseError.self) { try StringCatalogReader.parse(Array(original.prefix(length))) }
        }
    }

    @Test func damagedExampleNeverCrashes() throws {
        let original = try ExampleResourceFile.bytes("Menu.xcstrings")
        var mutator = ByteMutator(seed: 3)
        var failures = 0
        for _ in 0..<3000 {
            do {
                _ = try StringCatalogReader.parse(mutator.damaged(original))
            } catch {
                failures += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(failures > 0)
    }
}
