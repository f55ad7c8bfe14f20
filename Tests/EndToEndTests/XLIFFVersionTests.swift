import Foundation
import TestSupport
import Testing

/// Import reads XLIFF 1.2 only: a 2.0 document is refused by name before anything else (not
/// read as a 1.2 document with no units, "0 values changed", exit 0), and a 1.2 document is
/// read by namespace, whatever prefix it gives XLIFF's elements.
@Suite struct XLIFFVersionTests {

    /// English `save` and its German, `Sichern`.
    func project() throws -> ImportProject {
        try ImportProject(english: "\"save\" = \"Save\";\n", german: "\"save\" = \"Sichern\";\n")
    }

    @Test func anXLIFF2DocumentIsRefusedBeforeAnythingElse() throws {
        let project = try project()
        let file = try project.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">
              <file id="f1" original="en.lproj/Localizable.strings">
                <unit id="save"><segment><source>Save</source><target>Speichern</target></segment></unit>
              </file>
            </xliff>

            """, to: "de.xliff")
        // Without --lang too: the version is the first thing said, not a missing language.
        let result = try project.importing(file)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("XLIFF 2.0 is not supported"), "\(result.stderr)")
        #expect(!result.stderr.contains("--lang"), "\(result.stderr)")
        #expect(try project.germanText() == "\"save\" = \"Sichern\";\n")
    }

    @Test func aPrefixedXLIFF12DocumentIsRead() throws {
        let project = try project()
        let file = try project.write(
            """
            <?xml version='1.0' encoding='utf-8'?>
            <ns0:xliff xmlns:ns0="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
              <ns0:file original="en.lproj/Localizable.strings" source-language="en" target-language="de" datatype="plaintext">
                <ns0:body>
                  <ns0:trans-unit id="save" xml:space="preserve">
                    <ns0:source>Save</ns0:source>
                    <ns0:target>Speichern</ns0:target>
                  </ns0:trans-unit>
                </ns0:body>
              </ns0:file>
            </ns0:xliff>

            """, to: "de.xliff")
        let result = try project.importing(file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try project.germanText() == "\"save\" = \"Speichern\";\n")
    }

    /// Each error says why, in words: none ends in a bare "?".
    @Test(arguments: [
        ("<other xmlns=\"urn:example\"/>\n", "not XLIFF 1.2: the root element is <other>"),
        ("<xliff version=\"1.2\"><file></xliff>\n", "end tag that does not match its start tag (libxml2 error 76)"),
    ])
    func anUnreadableDocumentSaysWhy(text: String, error: String) throws {
        let project = try ImportProject(english: "\"save\" = \"Save\";\n")
        let file = try project.write(text, to: "de.xliff")
        let result = try project.importing(file, "--lang", "de")
        #expect(result.status == 1 && result.stderr.contains(error), "\(result.stderr)")
        #expect(!result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("?"), "\(result.stderr)")
    }
}
