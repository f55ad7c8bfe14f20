import Foundation
import TestSupport
import Testing

/// An XLIFF unit with two `<target>`s has no one translation: an XML reader keeps the last,
/// and import wrote it silently (an outside tester's find). Now neither is written, an error
/// names the unit and the import exits 1; the file's other units are written.
@Suite struct ImportTwoTargetsTests {
    @Test func aUnitWithTwoTargetsIsAnErrorNamingIt() throws {
        let project = try ImportProject(
            english: "\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", german: "\"save\" = \"Sichern\";\n")
        let xliff = try project.write(
            ImportProject.xliff(
                """
                      <trans-unit id="save"><source>Save</source><target>Speichern</target><target>Ablegen</target></trans-unit>
                      <trans-unit id="quit"><source>Quit</source><target>Beenden</target></trans-unit>
                """), to: "de.xliff")
        let result = try project.importing(xliff)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "l10nctl: error: \(xliff): en.lproj/Localizable.strings: unit \"save\" has 2 <target> elements; "
                    + "none of them is written"), "\(result.stderr)")
        let written = try project.germanText()
        #expect(
            written.contains("\"save\" = \"Sichern\";") && written.contains("\"quit\" = \"Beenden\";"), "\(written)")
    }
}
