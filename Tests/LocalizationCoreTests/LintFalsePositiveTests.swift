import LocalizationCore
import TestSupport
import Testing

/// Shapes the shared corpora showed lint reporting wrongly (issue 23: no false positive in a
/// sampled 100 per rule), each as the corpus file writes it, in a temp directory.
@Suite struct LintFalsePositiveTests {
    func lint(_ root: TemporaryDirectory) -> [LintFinding] {
        ResourceLinter.lint(paths: [root.path], options: LintOptions())
    }

    /// Mastodon's `plural.count.followed_by_and_mutual`: a format of two variables whose
    /// forms name the first argument as an object. Arabic `two` is written as English `one`
    /// (no count of its own), which English has as a form, though not as `two`.
    static func mutual(_ forms: [(String, String)]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>plural.count.followed_by_and_mutual</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%#@names@%#@count_mutual@</string>
                <key>names</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>ld</string>
                    <key>other</key>
                    <string></string>
                </dict>
                <key>count_mutual</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>ld</string>
        \(forms.map { "            <key>\($0.0)</key>\n            <string>\($0.1)</string>" }.joined(separator: "\n"))
                </dict>
            </dict>
        </dict>
        </plist>
        """
    }

    @Test func aPluralFormMayTakeTheArgumentsOfAnotherOfTheOriginalsForms() throws {
        let root = try TemporaryDirectory()
        try root.write(
            Self.mutual([
                ("one", "Followed by %1$@, and another mutual"), ("other", "Followed by %1$@, and %ld mutuals"),
            ]), to: "en.lproj/Localizable.stringsdict")
        try root.write(
            Self.mutual([
                ("zero", "followed by no one"), ("one", "followed by %1$@ and one other"),
                ("two", "followed by %1$@ and two others"), ("few", "followed by %1$@ and %ld others"),
                ("many", "followed by %1$@ and %ld others"), ("other", "followed by %1$@ and %ld other"),
            ]), to: "ar.lproj/Localizable.stringsdict")
        #expect(lint(root).filter { $0.rule == .placeholderMismatch }.isEmpty, "\(lint(root))")

        // A form that fits none of English's forms is still reported, naming its category.
        try root.write(
            Self.mutual([
                ("zero", "none"), ("one", "%1$@"), ("two", "%2$@ and two"), ("few", "%1$@ %ld"), ("many", "%1$@ %ld"),
                ("other", "%1$@ %ld"),
            ]), to: "ar.lproj/Localizable.stringsdict")
        let findings = lint(root).filter { $0.rule == .placeholderMismatch }
        #expect(findings.map { $0.message.contains("form two") } == [true], "\(findings)")
    }

    /// IINA's menu title `% of screen`: no format (formatting would read `% o`), so its
    /// Hungarian `%-a a kijelzőnek` (the suffixed percent sign, "its percent") is shown as it
    /// is, as Foundation shows a menu title; a translation of a real format is still checked.
    @Test func aTranslationOfTextThatIsNoFormatHasNoPlaceholders() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"2YJ-bg-OdR.title\" = \"% of screen\";\n\"n\" = \"%d%% of screen\";\n",
            to: "en.lproj/PrefUIViewController.strings")
        try root.write(
            "\"2YJ-bg-OdR.title\" = \"%-a a kijelzõnek\";\n\"n\" = \"%-a a kijelzõnek\";\n",
            to: "hu.lproj/PrefUIViewController.strings")
        let findings = lint(root).filter { $0.rule == .placeholderMismatch }
        #expect(findings.map(\.key) == ["n"], "\(findings)")
        #expect(PlaceholderStyles.printf.mismatch("% of screen", "%-a a kijelzõnek") == nil)
        #expect(PlaceholderStyles.printf.mismatch("%d of screen", "%-a a kijelzõnek") != nil)
    }

    /// IINA's `KeyBinding.strings`: `s` and `%`, written after a number by the app, which
    /// Czech, Croatian and Ukrainian space from it (` s (točno)`, ` %`) as their typography
    /// asks. A space added before a word, and a unit's space dropped, are still reported.
    @Test func aSpaceBeforeAUnitTheLanguageSpacesIsNoEdgeWhitespace() throws {
        let root = try TemporaryDirectory()
        try root.write(
            "\"relative+exact\" = \"s (exact)\";\n\"absolute-percent\" = \"%\";\n\"toggle\" = \"Toggle mirror\";\n"
                + "\"spaced\" = \" s\";\n",
            to: "en.lproj/KeyBinding.strings")
        try root.write(
            "\"relative+exact\" = \" s (točno)\";\n\"absolute-percent\" = \"\u{00A0}%\";\n"
                + "\"toggle\" = \" Zrcaljenje\";\n\"spaced\" = \"s\";\n",
            to: "hr.lproj/KeyBinding.strings")
        let findings = lint(root).filter { $0.rule == .edgeWhitespace }
        #expect(findings.map(\.key) == ["toggle", "spaced"], "\(findings)")
    }
}
