import LocalizationCore
import TestSupport
import Testing

/// Two `.lproj` folders of one language in one root: one folder's table is served whole, as
/// Foundation serves one localization's (issue 25), the one named exactly as the language.
@Suite struct SameLanguageFoldersTests {
    static func lookup(_ key: String, _ language: String, in directory: TemporaryDirectory) throws -> LookupResult {
        ResourceSet.load(roots: [directory.path], developmentLanguage: LanguageTag(language: "en"))
            .lookup(key, languages: [try LanguageTag(language)])
    }

    @Test func hyphenAndUnderscoreAreNotMixed() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "en_GB.lproj/Localizable.strings", "\"a\" = \"underscore a\";\n\"u\" = \"only underscore\";")
        try directory.write("en-GB.lproj/Localizable.strings", "\"a\" = \"hyphen a\";\n\"h\" = \"only hyphen\";")
        try directory.write("en.lproj/Localizable.strings", "\"a\" = \"en a\";\n\"u\" = \"en u\";")
        #expect(try Self.lookup("a", "en-GB", in: directory).value == "hyphen a")
        #expect(try Self.lookup("h", "en-GB", in: directory).value == "only hyphen")
        // The underscore folder's table is not served: its key comes from the next language.
        let other = try Self.lookup("u", "en-GB", in: directory)
        #expect(other.value == "en u")
        #expect(other.language?.identifier == "en")
    }

    @Test func legacyNameBesideTheCodeIsNotMixed() throws {
        let directory = try TemporaryDirectory()
        try directory.write("English.lproj/Localizable.strings", "\"a\" = \"legacy a\";\n\"l\" = \"only legacy\";")
        try directory.write("en.lproj/Localizable.strings", "\"a\" = \"code a\";")
        #expect(try Self.lookup("a", "en", in: directory).value == "code a")
        #expect(!(try Self.lookup("l", "en", in: directory).found))
    }

    @Test func eachTableIsDecidedOnItsOwn() throws {
        let directory = try TemporaryDirectory()
        try directory.write("en_GB.lproj/Menu.strings", "\"m\" = \"menu\";")
        try directory.write("en-GB.lproj/Localizable.strings", "\"a\" = \"hyphen a\";")
        let set = ResourceSet.load(roots: [directory.path], developmentLanguage: LanguageTag(language: "en"))
        #expect(set.lookup("m", languages: [try LanguageTag("en-GB")], table: "Menu").value == "menu")
        #expect(set.lookup("a", languages: [try LanguageTag("en-GB")]).value == "hyphen a")
    }

    /// Without the exactly named folder, the first by path wins, whole.
    @Test func withoutTheExactNameTheFirstByPathWins() throws {
        let directory = try TemporaryDirectory()
        try directory.write("en_GB.lproj/Localizable.strings", "\"a\" = \"underscore a\";")
        try directory.write("en_gb.lproj/Localizable.strings", "\"a\" = \"lower a\";\n\"x\" = \"only lower\";")
        #expect(try Self.lookup("a", "en-GB", in: directory).value == "underscore a")
        #expect(!(try Self.lookup("x", "en-GB", in: directory).found))
    }
}
