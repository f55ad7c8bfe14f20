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
}
