import LocalizationCore
import TestSupport
import Testing

@Suite struct AcceptLanguageTests {
    func preferences(_ header: String) -> [String] {
        AcceptLanguage.preferences(header).map(\.identifier)
    }

    @Test(arguments: [
        ("de-DE,de;q=0.9,en;q=0.8", ["de-DE", "de", "en"]),
        // Weights, not positions, decide; equal weights keep the header's order.
        ("en;q=0.5, fr, ja;q=0.5", ["fr", "en", "ja"]),
        ("en;q=0.8,de;q=0.9,de-DE", ["de-DE", "de", "en"]),
        // `*` and `q=0` name no language to try.
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", ["fr-CH", "fr", "en", "de"]),
        ("ja, en;q=0", ["ja"]),
        // Malformed parts are skipped, the rest kept.
        ("../x, ja;q=abc, ko;q=2, de;foo=1, ;q=0.5, , zh_TW;Q=0.3, pt-BR", ["pt-BR", "zh-TW"]),
        // Spaces, and a language named twice keeps its best weight.
        (" es-419 ; q=0.7 ,  en ,es-419", ["en", "es-419"]),
        ("", []), ("*", []), (",,,", []),
    ])
    func ordersByWeight(header: String, expected: [String]) {
        #expect(preferences(header) == expected, "\(header)")
    }

    @Test func longListsAreBounded() {
        let header = (0..<1000).map { _ in "ja;q=0.5" }.joined(separator: ",") + ",en"
        #expect(preferences(header) == ["ja"])
    }

    @Test func aTagOrAListWherever() throws {
        #expect(try LanguageTag.preferences("zh_Hant_TW").map(\.identifier) == ["zh-Hant-TW"])
        #expect(try LanguageTag.preferences("de-DE,de;q=0.9").map(\.identifier) == ["de-DE", "de"])
        #expect(throws: LanguageTagError.self) { try LanguageTag.preferences("../x") }
        #expect(throws: LanguageTagError.self) { try LanguageTag.preferences("../x;q=1,  ;q=0.2") }
        #expect(try LanguageTag.preferences("*").isEmpty)
        #expect(LanguageTag.preferences(["ja", "bad/", "de-DE,en;q=0.1"]).map(\.identifier) == ["ja", "de-DE", "en"])
    }

    /// `*` is a usable answer ("anything": the chain's tail) wherever it is, with any weight
    /// above 0; a list whose only parts are refusals or junk is an error, `*;q=0` included.
    @Test func aWildcardIsUsableWhereverItStands() throws {
        for header in ["*", " * ", "*;q=0.5", "de;q=0, *", ",,*"] {
            #expect(try LanguageTag.preferences(header).isEmpty, "\(header)")
        }
        for header in ["*;q=0", "de;q=0", ",,", "*;q=abc", "de;q=0,*;q=0"] {
            #expect(throws: LanguageTagError.self, "\(header)") { try LanguageTag.preferences(header) }
        }
    }

    /// The header, handed to a lookup from files: German, not the development language.
    @Test func aHeaderLooksUpGerman() throws {
        let directory = try TemporaryDirectory()
        try directory.write("de.lproj/Localizable.strings", "\"Hello\" = \"Hallo\";")
        try directory.write("en.lproj/Localizable.strings", "\"Hello\" = \"Hello\";")
        let resources = ResourceSet.load(roots: [directory.path])
        let result = resources.lookup("Hello", languages: LanguageTag.preferences(["de-DE,de;q=0.9,en;q=0.8"]))
        #expect(result.value == "Hallo")
        #expect(result.language?.identifier == "de")
    }
}
