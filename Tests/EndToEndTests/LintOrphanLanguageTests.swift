import Foundation
import TestSupport
import Testing

/// Two things lint was silent about (an outside tester's find): a language folder with no
/// table (an empty `fr.lproj`), and a translation's table the development language lacks
/// altogether (no obsolete-key finding, since there was nothing to compare each key with).
/// Both are warnings with messages that say what to do, in text, JSON and valid SARIF.
@Suite struct LintOrphanLanguageTests {
    static func project() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"Open\";\n", to: "Resources/en.lproj/Localizable.strings")
        try root.write("\"a\" = \"Öffnen\";\n", to: "Resources/de.lproj/Localizable.strings")
        try root.write("\"old\" = \"Alt\";\n\"older\" = \"Älter\";\n", to: "Resources/de.lproj/Legacy.strings")
        try root.makeDirectory("Resources/fr.lproj")
        try root.makeDirectory("Resources/Base.lproj")
        return root
    }

    func lint(_ arguments: [String]) throws -> ProcessOutput { try L10nctl.run(arguments: ["lint"] + arguments) }

    @Test func anEmptyLanguageFolderAndAnOrphanTableAreWarnings() throws {
        let root = try Self.project()
        let resources = root.path + "/Resources"
        let output = try lint([root.path])
        #expect(output.status == 0, "\(output)")
        #expect(
            output.stdout.contains(
                "\(resources)/fr.lproj:1:1: warning: Resources/fr.lproj holds no table (no .strings or .stringsdict file; it is "
                    + "empty): its language translates nothing here; add its tables, or remove the folder [untranslated]"
            ),
            "\(output.stdout)")
        #expect(
            output.stdout.contains(
                "\(resources)/de.lproj/Legacy.strings:1:1: warning: obsolete table \"Legacy\": the development language "
                    + "(en) has no such table"),
            "\(output.stdout)")
        #expect(
            output.stdout.contains("so this file's 2 keys have no source string [obsolete-key]"), "\(output.stdout)")
        // An empty Base.lproj is an Xcode project's storyboard folder: nothing to say.
        #expect(!output.stdout.contains("Base.lproj holds no table"), "\(output.stdout)")
    }

    @Test func theSARIFStaysValid() throws {
        let root = try Self.project()
        let output = try lint([root.path, "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = (run["results"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
        #expect(rules.contains("obsolete-key") && rules.contains("untranslated"), "\(rules)")
        try SarifSchemaCheck.validate(output.stdout)
    }

    /// A table the development language has as a `.stringsdict`, or Base as a storyboard
    /// (Xcode's `fr.lproj/Main.strings` translates `Base.lproj/Main.storyboard`), is no orphan.
    @Test func aTableTheDevelopmentLanguageHasInAnotherFormIsNoOrphan() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"Open\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"a\" = \"Öffnen\";\n", to: "de.lproj/Localizable.strings")
        try root.write("\"n\" = \"N\";\n", to: "de.lproj/Plurals.strings")
        try root.write(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict/></plist>\n",
            to: "en.lproj/Plurals.stringsdict")
        try root.write("/* Class = \"UILabel\"; */\n\"x.text\" = \"Hallo\";\n", to: "de.lproj/Main.strings")
        try root.write("<document/>\n", to: "Base.lproj/Main.storyboard")
        let output = try lint([root.path])
        #expect(!output.stdout.contains("obsolete table"), "\(output.stdout)")
    }
}
