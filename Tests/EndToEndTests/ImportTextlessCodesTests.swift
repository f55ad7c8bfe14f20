import Foundation
import LocalizationCore
import TestSupport
import Testing

/// l10nd's values are plain text: an XLIFF `<target>` with an inline code that carries no
/// text (`<x id="2"/>`, an empty `<ph>`) cannot be written faithfully, so that unit is refused
/// by name (it was written without the code, exit 0); one with an `equiv-text` (XLIFF 1.2's
/// "text to substitute in place of an inline tag") or with its original code as content
/// (`<ph>`, `<bpt>`) is written with that text, and `<g>`'s content is kept as before.
@Suite struct ImportTextlessCodesTests {
    static func run(_ units: String) throws -> (ProcessOutput, [String: String]) {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"Settings!\";\n\"b\" = \"Open\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"a\" = \"Einstellungen\";\n\"b\" = \"Öffnen\";\n", to: "r/de.lproj/Localizable.strings")
        let xliff = try root.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="en.lproj/Localizable.strings" source-language="en" target-language="de">
                <body>\(units)<trans-unit id="b"><source>Open</source><target>Auf</target></trans-unit></body>
              </file>
            </xliff>
            """, to: "de.xliff")
        let result = try L10nctl.run("import", root.path + "/r", xliff)
        let bytes = try #require(FileManager.default.contents(atPath: root.path + "/r/de.lproj/Localizable.strings"))
        return (result, try StringsParser.parse(Array(bytes)).table)
    }

    @Test(arguments: [
        #"Ein<g id="1">stell</g>ungen<x id="2"/>!"#, #"Einstellungen<bx id="3"/>!"#, #"Einstellungen<ph id="4"/>!"#,
        #"Einstellungen<it id="5" pos="open"></it>!"#,
    ])
    func aTargetWithATextlessCodeIsRefusedByName(target: String) throws {
        let (result, table) = try Self.run(
            #"<trans-unit id="a"><source>Settings!</source><target>"# + target + "</target></trans-unit>")
        #expect(result.status != 0)
        #expect(result.stderr.contains("unit \"a\"") && result.stderr.contains("not written"), "\(result.stderr)")
        #expect(table["a"] == "Einstellungen" && table["b"] == "Auf")
    }

    @Test(arguments: [
        (#"Ein<g id="1">stell</g>ungen<x id="2" equiv-text="!"/>"#, "Einstellungen!"),
        (#"Einstellungen<ph id="1">&lt;br/&gt;</ph>!"#, "Einstellungen<br/>!"),
        (#"<bpt id="1">&lt;b&gt;</bpt>Einstellungen<ept id="1">&lt;/b&gt;</ept>"#, "<b>Einstellungen</b>"),
        (#"Ein<mrk mtype="term">stellungen</mrk>!"#, "Einstellungen!"),
    ])
    func codesWithTheirTextAreWritten(target: String, expected: String) throws {
        let (result, table) = try Self.run(
            #"<trans-unit id="a"><source>Settings!</source><target>"# + target + "</target></trans-unit>")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(table["a"] == expected)
    }
}
