import LocalizationCore
import TestSupport
import Testing

/// Entries import adds to a `.stringsdict` (and a new language's file) are indented exactly
/// as the file is, or as the development language's file is: its base column and its step.
@Suite struct StringsDictAdditionIndentTests {
    /// A hand-written file laid out with the root `<dict>` at column 2 and 2-space steps,
    /// with an entry per `(key, one, other)`.
    static func file(_ entries: [(String, String, String)]) -> String {
        StringsDictFixture.file(
            entries.map { ($0.0, [("one", $0.1), ("other", $0.2)]) }, step: "  ", root: "  ", doctype: true)
    }

    static let english = file([("apples", "%d apple", "%d apples"), ("pears", "%d pear", "%d pears")])
    static let german = file([("apples", "%d Apfel", "%d Äpfel"), ("pears", "%d Birne", "%d Birnen")])

    func edits(_ key: String, _ one: String, _ other: String) -> [ResourceEdit] {
        [
            .stringsDictForm(key: key, variable: "n", category: .one, value: one),
            .stringsDictForm(key: key, variable: "n", category: .other, value: other),
        ]
    }

    @Test func anEntryAddedToAFileTakesItsIndentation() throws {
        let existing = Self.file([("apples", "%d Apfel", "%d Äpfel")])
        let result = try ResourceEditor.apply(
            edits("pears", "%d Birne", "%d Birnen"), to: Array(existing.utf8), kind: .stringsDict,
            file: "de.lproj/L.stringsdict", reference: Array(Self.english.utf8))
        #expect(result.skipped.isEmpty, "\(result.skipped)")
        #expect(String(decoding: result.bytes, as: UTF8.self) == Self.german)
    }

    @Test func aNewFileTakesTheDevelopmentLanguagesIndentation() throws {
        let result = try ResourceEditor.apply(
            edits("apples", "%d Apfel", "%d Äpfel") + edits("pears", "%d Birne", "%d Birnen"), to: [],
            kind: .stringsDict, file: "de.lproj/L.stringsdict", reference: Array(Self.english.utf8))
        #expect(result.skipped.isEmpty, "\(result.skipped)")
        #expect(String(decoding: result.bytes, as: UTF8.self) == Self.german)
    }

    /// A form added to a variable the file has goes one of the file's own steps deeper than
    /// the variable's `</dict>`: tabs, 2 or 4 spaces, wherever the root is.
    @Test(arguments: [("\t", ""), ("  ", ""), ("    ", ""), ("  ", "  ")])
    func aFormAddedToAnEntryTakesTheFilesStep(step: String, root: String) throws {
        let before = StringsDictFixture.file([("k", [("other", "%d файла")])], valueType: nil, step: step, root: root)
        let result = try ResourceEditor.apply(
            [.stringsDictForm(key: "k", variable: "n", category: .few, value: "%d <файла>")], to: Array(before.utf8),
            kind: .stringsDict, file: "ru.lproj/L.stringsdict")
        let after = StringsDictFixture.file(
            [("k", [("other", "%d файла"), ("few", "%d &lt;файла&gt;")])], valueType: nil, step: step, root: root)
        #expect(String(decoding: result.bytes, as: UTF8.self) == after)
    }
}
