import Foundation
import LocalizationCore
import TestSupport
import Testing

/// `l10nctl import`'s summary counts each value written, changed or added; a unit the
/// XLIFF gives twice is an error for that unit, and neither of its translations is written.
@Suite struct ImportCountsAndDuplicatesTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: arguments)
    }

    /// A project whose `en` has `count` keys `k1`…, of which `de` translates `k1`, exported
    /// to XLIFF.
    func exported(keys count: Int, in root: TemporaryDirectory) throws -> (
        resources: String, xliff: String, text: String
    ) {
        let keys = (1...count).map { "\"k\($0)\" = \"K\($0)\";\n" }.joined()
        try root.write(keys, to: "r/en.lproj/Localizable.strings")
        try root.write("\"k1\" = \"Eins\";\n", to: "r/de.lproj/Localizable.strings")
        let xliff = root.path + "/de.xliff"
        let export = try run("export", root.path + "/r", "--lang", "de", "--output", xliff)
        #expect(export.status == 0 && FileManager.default.fileExists(atPath: xliff), "\(export)")
        return (root.path + "/r", xliff, try String(contentsOfFile: xliff, encoding: .utf8))
    }

    @Test(arguments: [2, 7])
    func eachAddedKeyIsCounted(added: Int) throws {
        let root = try TemporaryDirectory()
        let (resources, xliff, text) = try exported(keys: added + 1, in: root)
        var filled = text
        for number in 2...(added + 1) {
            filled = filled.replacingOccurrences(
                of: "<source>K\(number)</source>\n", with: "<source>K\(number)</source>\n<target>D\(number)</target>\n")
        }
        // And one changed value beside the added ones.
        filled = filled.replacingOccurrences(of: "<target>Eins</target>", with: "<target>Ein</target>")
        try filled.write(toFile: xliff, atomically: true, encoding: .utf8)
        let imported = try run("import", resources, xliff)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("\(added + 1) values changed in 1 file"), "\(imported.stderr)")
        let table = try StringsParser.parse(
            Array(FileManager.default.contents(atPath: resources + "/de.lproj/Localizable.strings")!)
        ).table
        #expect(table.count == added + 1 && table["k1"] == "Ein" && table["k2"] == "D2")
        withExtendedLifetime(root) {}
    }

    @Test func aUnitGivenTwiceIsAnErrorAndNotWritten() throws {
        let root = try TemporaryDirectory()
        let (resources, xliff, text) = try exported(keys: 3, in: root)
        let german = resources + "/de.lproj/Localizable.strings"
        let before = FileManager.default.contents(atPath: german)
        let twice = """
                  <trans-unit id="k2" xml:space="preserve">
                    <source>K2</source>
                    <target>Zwei</target>
                  </trans-unit>
                  <trans-unit id="k2" xml:space="preserve">
                    <source>K2</source>
                    <target>Zwo</target>
                  </trans-unit>
            """
        var edited = text.replacingOccurrences(
            of: "<source>K3</source>\n", with: "<source>K3</source>\n<target>Drei</target>\n")
        let unit = try #require(
            edited.range(of: #"\s*<trans-unit id="k2"[\s\S]*?</trans-unit>"#, options: .regularExpression))
        edited.replaceSubrange(unit, with: "\n" + twice)
        try edited.write(toFile: xliff, atomically: true, encoding: .utf8)

        let imported = try run("import", resources, xliff)
        #expect(imported.status == 1)
        #expect(
            imported.stderr.contains(
                "l10nctl: skipped: en.lproj/Localizable.strings: unit \"k2\" is given 2 times; none of them is written"),
            "\(imported.stderr)")
        #expect(imported.stderr.contains("1 value changed in 1 file"), "\(imported.stderr)")
        let table = try StringsParser.parse(Array(FileManager.default.contents(atPath: german)!)).table
        #expect(table == ["k1": "Eins", "k3": "Drei"], "\(table)")
        #expect(before != FileManager.default.contents(atPath: german))
        withExtendedLifetime(root) {}
    }
}
