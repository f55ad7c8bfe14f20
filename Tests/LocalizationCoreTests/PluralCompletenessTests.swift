import LocalizationCore
import Testing

@Suite struct PluralCompletenessTests {
    static func entry(_ forms: [PluralCategory: String]) -> TableEntry {
        let plural = PluralFormat(format: "%#@n@", variables: ["n": .init(valueType: "d", forms: forms)])
        return TableEntry(value: forms[.other] ?? "", plural: plural)
    }

    /// Each language is held to its own CLDR categories, `zero` never required, `Base` to
    /// the development language's.
    @Test func missingFormsPerLanguageCategories() throws {
        let catalog = ResourceCatalog(
            developmentLanguage: LanguageTag(language: "en"),
            tables: [
                "ru": ["T": LocalizationTable(entries: ["k": Self.entry([.one: "a", .other: "b"])])],
                "en": ["T": LocalizationTable(entries: ["k": Self.entry([.one: "a", .other: "b"])])],
                "Base": ["T": LocalizationTable(entries: ["k": Self.entry([.other: "b"])])],
                "ja": [
                    "T": LocalizationTable(entries: ["k": Self.entry([.other: "b"]), "plain": TableEntry(value: "x")])
                ],
            ])
        let languages = PluralCompleteness(catalog: catalog).languages
        #expect(languages.map(\.language) == ["Base", "en", "ja", "ru"])
        #expect(languages.map(\.entries) == [1, 1, 1, 1])
        #expect(languages[0].gaps.map(\.missing) == [[.one]])
        #expect(languages[1].gaps.isEmpty && languages[2].gaps.isEmpty)
        let gap = try #require(languages[3].gaps.first)
        #expect(languages[3].gaps.count == 1)
        #expect(gap.table == "T" && gap.key == "k" && gap.variable == "n" && gap.missing == [.few, .many])
    }
}
