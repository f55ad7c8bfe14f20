import LocalizationCore
import Testing

@testable import LocalizationDaemon

/// The log lines for files that could not be read: one for files failing alike, one a file
/// otherwise.
@Suite struct FileErrorLogTests {
    @Test func filesUnreadableAlikeAreOneLineAndParseErrorsStayOneEach() {
        let errors = [
            ResourceParseError.unreadable("/r/ja.lproj/B.strings", reason: "Permission denied"),
            ResourceParseError.unreadable("/r/de.lproj/A.strings", reason: "Permission denied"),
            ResourceParseError.unreadable("/r/de.lproj/C.strings", reason: "Permission denied"),
            ResourceParseError.unreadable("/s/x.lproj/D.strings", reason: "Is a directory"),
            ResourceParseError(
                location: SourceLocation(file: "/r/fr.lproj/E.strings", line: 3, column: 7), message: "missing ';'"),
        ]
        #expect(
            FileErrorLog.lines(for: errors, kept: true) == [
                "/r: cannot be read: Permission denied, 3 files under it (first /r/de.lproj/A.strings; "
                    + "the last good versions are still served; l10nctl status lists each)",
                "/r/fr.lproj/E.strings:3:7: missing ';' (the last good version is still served)",
                "/s/x.lproj/D.strings:1:1: cannot be read: Is a directory (the last good version is still served)",
            ])
        #expect(
            FileErrorLog.lines(for: Array(errors.prefix(3)), kept: false) == [
                "/r: cannot be read: Permission denied, 3 files under it (first /r/de.lproj/A.strings; "
                    + "l10nctl status lists each)"
            ])
    }

    /// A file with no last good table (its root switched away and back, then refused) is not
    /// said to be "still served"; a burst holding one does not say its files are.
    @Test func aFileWithNoLastGoodVersionIsNotSaidToBeServed() {
        let big = ResourceParseError.unreadable("/r/Big.xcstrings", reason: "out of memory")
        let other = ResourceParseError.unreadable("/r/Other.xcstrings", reason: "out of memory")
        #expect(
            FileErrorLog.lines(for: [big], kept: true, unserved: ["/r/Big.xcstrings"]) == [
                "/r/Big.xcstrings:1:1: cannot be read: out of memory (it has no last good version: nothing of it is served)"
            ])
        #expect(
            FileErrorLog.lines(for: [big, other], kept: true, unserved: ["/r/Big.xcstrings"]) == [
                "/r: cannot be read: out of memory, 2 files under it (first /r/Big.xcstrings; l10nctl status lists each)"
            ])
    }
}
