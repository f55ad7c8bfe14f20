import Testing

@testable import LocalizationCore

/// A key added to a `.strings` file ends its line as the file's lines do: a CRLF file
/// (saved on Windows) stays all CRLF, an LF file all LF, also when its last line had no end.
@Suite struct ResourceEditorLineEndingTests {
    @Test(arguments: [
        ("\"a\" = \"A\";\r\n", "\"a\" = \"A\";\r\n\"new\" = \"Neu\";\r\n"),
        ("\"a\" = \"A\";", "\"a\" = \"A\";\n\"new\" = \"Neu\";\n"),
        ("\"a\" = \"A\";\r\n\"b\" = \"B\";", "\"a\" = \"A\";\r\n\"b\" = \"B\";\r\n\"new\" = \"Neu\";\r\n"),
        ("\"a\" = \"A\";\n", "\"a\" = \"A\";\n\"new\" = \"Neu\";\n"),
    ])
    func anAddedKeyEndsAsTheFilesLines(file: String, expected: String) throws {
        let outcome = try ResourceEditor.apply(
            [.strings(key: "new", value: "Neu")], to: Array(file.utf8), kind: .strings,
            file: "de.lproj/Localizable.strings")
        #expect(outcome.changed == 1)
        #expect(outcome.bytes == Array(expected.utf8))
    }
}
