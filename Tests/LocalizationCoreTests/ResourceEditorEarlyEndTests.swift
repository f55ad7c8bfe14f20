import Testing

@testable import LocalizationCore

/// A `.strings` file whose reading stops early (a comment never closed, a stray character)
/// is read now, as Foundation reads it (issue 25); an import must not add entries past that
/// point, where nobody would read them: they are listed as skipped, and edits of the entries
/// before it are still written.
@Suite struct ResourceEditorEarlyEndTests {
    @Test(arguments: ["\"a\" = \"A\";\n/* to do", "\"a\" = \"A\";=\n"])
    func anEntryPastTheEndIsNotAdded(text: String) throws {
        let bytes = Array(text.utf8)
        let outcome = try ResourceEditor.apply(
            [.strings(key: "a", value: "Ä"), .strings(key: "new", value: "Neu")], to: bytes, kind: .strings,
            file: "de.lproj/Localizable.strings")
        #expect(outcome.changed == 1)
        #expect(outcome.skipped.count == 1)
        #expect(outcome.skipped.first?.hasPrefix("de.lproj/Localizable.strings: \"new\" is not added") == true)
        let written = try StringsParser.parseTable(outcome.bytes)
        #expect(written.dictionary == ["a": "Ä"])
        #expect(!String(decoding: outcome.bytes, as: UTF8.self).contains("Neu"))
    }
}
