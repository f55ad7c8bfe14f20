import LocalizationCore
import Testing

@Suite struct LocalizationTableTests {
    @Test func overlayTakesTheNewerEntry() {
        let base = LocalizationTable(strings: ["a": "1", "b": "2"])
        let over = LocalizationTable(strings: ["b": "3", "c": "4"])
        let merged = base.overlaid(with: over)
        #expect(merged["a"]?.value == "1")
        #expect(merged["b"]?.value == "3")
        #expect(merged["c"]?.value == "4")
    }

    @Test func pluralOtherFormFillsEveryVariable() {
        let format = PluralFormat(
            format: "%#@files@ in %#@folders@",
            variables: [
                "files": .init(valueType: "d", forms: [.one: "%d file", .other: "%d files"]),
                "folders": .init(valueType: "d", forms: [.other: "%d folders"]),
            ])
        #expect(format.otherFormString == "%d files in %d folders")
    }
}
