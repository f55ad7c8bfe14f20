import LocalizationCore
import Testing

/// Entries import adds to a `.stringsdict` (and a new language's file) are indented exactly
/// as the file is, or as the development language's file is: its base column and its step.
@Suite struct StringsDictAdditionIndentTests {
    /// A hand-written file laid out with the root `<dict>` at column 2 and 2-space steps,
    /// with an entry per `(key, one, other)`.
    static func file(_ entries: [(String, String, String)]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
              <dict>

            """
        for (key, one, other) in entries {
            text += """
                    <key>\(key)</key>
                    <dict>
                      <key>NSStringLocalizedFormatKey</key>
                      <string>%#@n@</string>
                      <key>n</key>
                      <dict>
                        <key>NSStringFormatSpecTypeKey</key>
                        <string>NSStringPluralRuleType</string>
                        <key>NSStringFormatValueTypeKey</key>
                        <string>d</string>
                        <key>one</key>
                        <string>\(one)</string>
                        <key>other</key>
                        <string>\(other)</string>
                      </dict>
                    </dict>

                """
        }
        return text + "  </dict>\n</plist>\n"
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
}
