import Foundation
import LocalizationCore
import TestSupport
import Testing

/// An XLIFF unit whose `<target>` a translator emptied or deleted, where the files have a
/// translation: nothing is written (an import never removes a translation), and a warning
/// names the unit and the value kept — it was silent.
@Suite struct ImportEmptyTargetTests {
    @Test(arguments: [
        (#"<target></target>"#, "an empty <target>"), (#"<target/>"#, "an empty <target>"), ("", "no <target>"),
    ])
    func anEmptiedTargetKeepsTheValueAndSaysSo(target: String, said: String) throws {
        let project = try ImportProject(
            english: "\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", german: "\"save\" = \"Sichern\";\n")
        let xliff = try project.write(
            ImportProject.xliff(
                """
                      <trans-unit id="save"><source>Save</source>\(target)</trans-unit>
                      <trans-unit id="quit"><source>Quit</source></trans-unit>
                """), to: "de.xliff")
        let result = try project.importing(xliff)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "l10nctl: warning: \(xliff): en.lproj/Localizable.strings: unit \"save\" has \(said); "
                    + "its translation in the files, \"Sichern\", is kept"), "\(result.stderr)")
        // "quit" has no translation anywhere: nothing to say.
        #expect(!result.stderr.contains("\"quit\""), "\(result.stderr)")
        #expect(try project.germanText() == "\"save\" = \"Sichern\";\n")
    }
}
