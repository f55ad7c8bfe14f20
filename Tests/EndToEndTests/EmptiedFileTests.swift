import Foundation
import TestSupport
import Testing

/// A `.strings` file of 0 bytes: Foundation reads it as an empty table, and so does l10nd,
/// but a save that truncated the file or a tool that failed leaves the same. Lint reports
/// it; the daemon, when a file that had keys becomes empty, keeps its last table for the
/// hold grace, then serves it empty as Foundation would — and says so, in the log and in
/// `status`, naming the file.
@Suite struct EmptiedFileTests {
    @Test func lintReportsAnEmptyStringsFile() throws {
        let root = try TemporaryDirectory()
        try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        try root.write("", to: "de.lproj/Localizable.strings")
        let lint = try L10nctl.lint(root.path)
        let findings = lint.findings(of: "empty-file")
        #expect(findings.count == 1, "\(lint.output.stdout)")
        #expect((findings.first?["file"] as? String)?.hasSuffix("de.lproj/Localizable.strings") == true)
        #expect(findings.first?["severity"] as? String == "warning")
        #expect((findings.first?["message"] as? String)?.hasPrefix("the file is empty (0 bytes)") == true)
    }

    @Test func theDaemonSaysAFileThatHadKeysIsNowEmpty() throws {
        // As a save that truncated it leaves it: opened with O_TRUNC, closed.
        try daemonSays("the file is now empty (0 bytes; it had 12)", after: ": > de.lproj/Localizable.strings")
    }

    /// A daemon serving `de`'s `k`, the German file changed by `command` (a shell's, in the
    /// resource directory): `k` falls back to English once the hold grace is over, as
    /// Foundation reads the file, and `status` and the log say `said` of the file.
    func daemonSays(_ said: String, after command: String) throws {
        let f = try FaultTests.Fixture([
            "en.lproj/Localizable.strings": "\"k\" = \"en\";\n", "de.lproj/Localizable.strings": "\"k\" = \"de\";\n",
        ])
        #expect(try f.value("k", "de") == "de")
        let path = f.path("de.lproj/Localizable.strings")
        try f.shell(command)
        #expect(try f.eventually { try f.value("k", "de") == "en" })
        #expect(try f.eventually { try f.errors().contains { $0.hasPrefix("\(path): \(said)") } })
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
        #expect(f.daemon.log.contains("\(path):1:1: \(said)"), "\(f.daemon.log)")
    }

    /// Cleared but not to 0 bytes (an outside tester's find: these were served empty with
    /// no word): what the file holds, as printf writes it, and as the warning names it.
    static let cleared: [(printf: String, holds: String)] = [
        ("\\n", "only a newline, 1 byte"), ("\\357\\273\\277", "only a UTF-8 byte order mark, 3 bytes"),
        ("\\377\\376", "only a UTF-16 byte order mark, 2 bytes"), ("/* gone */\\n", "only comments, 11 bytes"),
    ]

    @Test func lintReportsAStringsFileWithOnlyANewlineABOMOrComments() throws {
        let root = try TemporaryDirectory()
        try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let languages = ["de", "fr", "it", "ja"]
        for (index, cleared) in Self.cleared.enumerated() {
            try root.write("", to: "\(languages[index]).lproj/Localizable.strings")
            _ = try ProcessRunner.run(
                "/bin/sh", ["-c", "printf '\(cleared.printf)' > \(languages[index]).lproj/Localizable.strings"],
                currentDirectory: root.path)
        }
        let lint = try L10nctl.lint(root.path)
        let findings = lint.findings(of: "empty-file")
        #expect(findings.count == Self.cleared.count, "\(lint.output.stdout)")
        for (index, cleared) in Self.cleared.enumerated() {
            let finding = findings.first {
                ($0["file"] as? String)?.hasSuffix("\(languages[index]).lproj/Localizable.strings") == true
            }
            #expect(
                (finding?["message"] as? String)?.hasPrefix("the file holds no entries (\(cleared.holds))") == true,
                "\(lint.output.stdout)")
        }
    }

    @Test(arguments: 0..<4) func theDaemonSaysAFileThatHadKeysNowHoldsNoEntries(case index: Int) throws {
        let cleared = Self.cleared[index]
        try daemonSays(
            "the file now holds no entries (\(cleared.holds); it had 12)",
            after: "printf '\(cleared.printf)' > de.lproj/Localizable.strings")
    }
}
