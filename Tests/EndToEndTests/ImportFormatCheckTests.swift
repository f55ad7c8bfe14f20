import Foundation
import LocalizationCore
import TestSupport
import Testing

/// `l10nctl import` checks each translation's placeholders against the source, as
/// `msgfmt --check-format` does: a dropped or changed `%@`, `%d` or `%1$@` is an error naming
/// the unit, and the value is not written unless `--force` (then a warning names it).
@Suite struct ImportFormatCheckTests {

    /// A project whose `en` has a `%@`, a `%d` and positional arguments, and a `de` to import into.
    func project(in root: TemporaryDirectory) throws -> String {
        try root.write(
            #""hello" = "Hello, %@!";"# + "\n" + #""count" = "%d files";"# + "\n"
                + #""move" = "Move %1$@ to %2$@";"# + "\n" + #""quit" = "Quit";"# + "\n",
            to: "r/en.lproj/Localizable.strings")
        try root.write(#""quit" = "Beenden";"# + "\n", to: "r/de.lproj/Localizable.strings")
        return root.path + "/r"
    }

    func po(in root: TemporaryDirectory, _ messages: [(String, String, String)]) throws -> String {
        let body = messages.map { id, source, translation in
            "msgctxt \"en.lproj/Localizable.strings|\(id)\"\nmsgid \"\(source)\"\nmsgstr \"\(translation)\"\n"
        }.joined(separator: "\n")
        return try root.write(
            "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n" + body,
            to: "de.po")
    }

    @Test func aDroppedOrChangedSpecifierIsAnErrorNamingTheUnit() throws {
        let root = try TemporaryDirectory()
        let resources = try project(in: root)
        let file = try po(
            in: root,
            [
                ("hello", "Hello, %@!", "Hallo!"), ("count", "%d files", "%@ Dateien"),
                ("move", "Move %1$@ to %2$@", "%1$@ nach %1$@ verschieben"), ("quit", "Quit", "Schließen"),
            ])
        let result = try L10nctl.run("import", resources, file)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        // An error, as `msgfmt --check-format` says it, naming the file, the unit and the
        // language: never "skipped", which reads as nothing wrong.
        for unit in ["hello", "count", "move"] {
            #expect(
                result.stderr.contains(
                    "l10nctl: error: \(file): en.lproj/Localizable.strings: unit \"\(unit)\" (de, "
                        + resources + "/de.lproj/Localizable.strings): "), "\(unit): \(result.stderr)")
        }
        #expect(!result.stderr.contains("skipped"), "\(result.stderr)")
        #expect(result.stderr.contains("not written (--force writes it)"), "\(result.stderr)")
        let german = try StringsParser.parse(
            Array(try #require(FileManager.default.contents(atPath: resources + "/de.lproj/Localizable.strings")))
        ).table
        // The good unit is written; the three with broken placeholders are not.
        #expect(german == ["quit": "Schließen"], "\(german)")
    }

    @Test func forceWritesThemWithAWarning() throws {
        let root = try TemporaryDirectory()
        let resources = try project(in: root)
        let file = try po(in: root, [("hello", "Hello, %@!", "Hallo!")])
        let result = try L10nctl.run("import", resources, file, "--force")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("l10nctl: warning: en.lproj/Localizable.strings: unit \"hello\""), "\(result.stderr)"
        )
        let german = try StringsParser.parse(
            Array(try #require(FileManager.default.contents(atPath: resources + "/de.lproj/Localizable.strings")))
        ).table
        #expect(german["hello"] == "Hallo!")
    }

    /// A reordered translation with the same arguments (`%2$@ … %1$@`) is right, and imported.
    @Test func reorderedPositionalArgumentsAreFine() throws {
        let root = try TemporaryDirectory()
        let resources = try project(in: root)
        let file = try po(in: root, [("move", "Move %1$@ to %2$@", "Nach %2$@: %1$@ verschieben")])
        let result = try L10nctl.run("import", resources, file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }
}
