import LocalizationCore
import Testing

@Suite struct ResourceFileTests {
    @Test func classifiesLprojFiles() throws {
        let strings = try #require(ResourceFile(path: "/r/ja_JP.lproj/Localizable.strings"))
        #expect(strings.kind == .strings)
        #expect(strings.language?.identifier == "ja-JP")
        #expect(strings.table == "Localizable")
        let dict = try #require(ResourceFile(path: "/r/deep/er/English.lproj/Menu.stringsdict"))
        #expect(dict.kind == .stringsDict)
        #expect(dict.language?.identifier == "en")
        #expect(dict.table == "Menu")
    }

    @Test func classifiesCatalogsAnywhere() throws {
        let catalog = try #require(ResourceFile(path: "/r/x/Menu.xcstrings"))
        #expect(catalog.kind == .stringCatalog)
        #expect(catalog.language == nil)
        #expect(catalog.table == "Menu")
    }

    @Test(arguments: [
        "/r/ja.lproj/.Localizable.strings.swp", "/r/ja.lproj/Localizable.strings~",
        "/r/ja.lproj/4913", "/r/Localizable.strings", "/r/../x.lproj/A.strings",
        "/r/ja.lproj/.strings", "/r/ja.lproj/A.txt", "/r/ja.lproj/A.strings___jb_tmp___",
    ])
    func ignoresNonResources(path: String) {
        #expect(ResourceFile(path: path) == nil)
    }

    /// A ConfigMap volume's flat keys read as the paths they stand for; a numbering before
    /// the language (files of one table from several directories) is not part of it.
    @Test(arguments: [
        ("/v/ja.lproj_Localizable.strings", "ja", "Localizable"),
        ("/v/zh_TW.lproj_Main.stringsdict", "zh-TW", "Main"),
        ("/v/0003.pt-BR.lproj_Intents.strings", "pt-BR", "Intents"),
        ("/v/ja.lproj_My_Table.strings", "ja", "My_Table"),
    ])
    func readsFlattenedNames(path: String, language: String, table: String) throws {
        let file = try #require(ResourceFile(path: path))
        #expect(file.language?.identifier == language && file.table == table)
    }

    @Test(arguments: ["/v/ja.lproj_.strings", "/v/.lproj_X.strings", "/v/../x.lproj_X.strings", "/v/x.lproj_X.txt"])
    func refusesBrokenFlattenedNames(path: String) {
        #expect(ResourceFile(path: path) == nil)
    }

    /// Inside an `.lproj` a name is only a table's, however it reads.
    @Test func insideAnLprojTheNameIsTheTable() throws {
        let file = try #require(ResourceFile(path: "/r/de.lproj/ja.lproj_X.strings"))
        #expect(file.language?.identifier == "de" && file.table == "ja.lproj_X")
    }
}
