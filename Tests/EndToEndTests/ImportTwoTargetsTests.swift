import Foundation
import TestSupport
import Testing

/// An XLIFF unit with two `<target>`s has no one translation: an XML reader keeps the last,
/// and import wrote it silently (an outside tester's find). Now neither is written, an error
/// names the unit and the import exits 1; the file's other units are written.
@Suite struct ImportTwoTargetsTests {
    @Test func aUnitWithTwoTargetsIsAnErrorNamingIt() throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", to: "r/en.lproj/Localizable.strings")
        let german = try root.write("\"save\" = \"Sichern\";\n", to: "r/de.lproj/Localizable.strings")
        let xliff = try root.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="en.lproj/Localizable.strings" source-language="en" target-language="de" datatype="plaintext">
                <body>
                  <trans-unit id="save"><source>Save</source><target>Speichern</target><target>Ablegen</target></trans-unit>
                  <trans-unit id="quit"><source>Quit</source><target>Beenden</target></trans-unit>
                </body>
              </file>
            </xliff>
            """, to: "de.xliff")
        let result = try L10nctl.run("import", root.path + "/r", xliff)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "l10nctl: error: \(xliff): en.lproj/Localizable.strings: unit \"save\" has 2 <target> elements; "
                    + "none of them is written"), "\(result.stderr)")
        let written = try String(contentsOfFile: german, encoding: .utf8)
        #expect(
            written.contains("\"save\" = \"Sichern\";") && written.contains("\"quit\" = \"Beenden\";"), "\(written)")
    }
}
