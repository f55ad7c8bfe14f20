import Foundation
import LocalizationCore
import TestSupport
import Testing

/// An XLIFF unit whose `<target>` a translator emptied or deleted, where the files have a
/// translation: nothing is written (an import never removes a translation), and a warning
/// names the unit and the value kept — it was silent.
@Suite struct ImportEmptyTargetTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    @Test(arguments: [
        (#"<target></target>"#, "an empty <target>"), (#"<target/>"#, "an empty <target>"), ("", "no <target>"),
    ])
    func anEmptiedTargetKeepsTheValueAndSaysSo(target: String, said: String) throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save\";\n\"quit\" = \"Quit\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"save\" = \"Sichern\";\n", to: "r/de.lproj/Localizable.strings")
        let xliff = try root.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <file original="en.lproj/Localizable.strings" source-language="en" target-language="de" datatype="plaintext">
                <body>
                  <trans-unit id="save"><source>Save</source>\(target)</trans-unit>
                  <trans-unit id="quit"><source>Quit</source></trans-unit>
                </body>
              </file>
            </xliff>
            """, to: "de.xliff")
        let result = try ProcessRunner.run(
            l10nctl, ["import", root.path + "/r", xliff], environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "l10nctl: warning: \(xliff): en.lproj/Localizable.strings: unit \"save\" has \(said); "
                    + "its translation in the files, \"Sichern\", is kept"), "\(result.stderr)")
        // "quit" has no translation anywhere: nothing to say.
        #expect(!result.stderr.contains("\"quit\""), "\(result.stderr)")
        let german = try String(contentsOfFile: root.path + "/r/de.lproj/Localizable.strings", encoding: .utf8)
        #expect(german == "\"save\" = \"Sichern\";\n")
    }
}
