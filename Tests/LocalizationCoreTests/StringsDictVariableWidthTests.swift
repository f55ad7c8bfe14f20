import LocalizationCore
import Testing

/// A format key `%1#@count@`: CoreFoundation's format parser reads the `1` as a width, then
/// the variable (issue 25: 500 selections of one app printed `3count@`).
@Suite struct StringsDictVariableWidthTests {
    static func entry(format: String) throws -> TableEntry {
        let bytes = StringsDictReaderTests.plist(
            """
            <key>%d photos</key>
            <dict>
            <key>NSStringLocalizedFormatKey</key><string>\(format)</string>
            <key>count</key>
            \(StringsDictReaderTests.variable(["one": "%d photo", "other": "%d photos"]))
            </dict>
            """)
        return try #require(try StringsDictReader.parse(bytes, file: "en.lproj/Localizable.stringsdict")["%d photos"])
    }

    @Test(arguments: ["%1#@count@", "%12#@count@", "%#@count@"])
    func aWidthBeforeTheVariableIsRead(format: String) throws {
        let entry = try Self.entry(format: format)
        let plural = try #require(entry.plural)
        #expect(plural.format == "%#@count@")
        #expect(entry.value == "%d photos")
        let rules = PluralRules.cldr(for: LanguageTag(language: "en"))
        #expect(plural.resolved(.count(PluralOperands(1)), rules: rules) == "%d photo")
        #expect(plural.resolved(.count(PluralOperands(3)), rules: rules) == "%d photos")
    }

    /// A position (`%1$#@count@`) stays one, and other conversions keep their widths.
    @Test func positionsAndOtherWidthsStay() throws {
        let entry = try Self.entry(format: "%1$#@count@ in %5d%% of %2$@")
        #expect(entry.plural?.format == "%1$#@count@ in %5d%% of %2$@")
    }
}
