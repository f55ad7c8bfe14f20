import Foundation
import LocalizationCore
import TestSupport
import Testing

/// `unchanged-from-source` leaves loanwords alone without hiding copies nobody translated:
/// a term another language respells in the same words (German `User-Agent:`) is a term
/// translators keep, so a language that keeps it while translating the rest of its table
/// (Italian `User agent:`) is not reported, one that left the table in English is; and a
/// table's share is counted over the entries that say something (Dutch `CANCEL` →
/// `ANNULEER` does, a kept `DOWNLOAD` does not), so Dutch `Downloads:` stands in a
/// translated table.
@Suite struct LintLoanwordTests {
    func unchanged(_ paths: [String]) -> [String] {
        ResourceLinter.lint(paths: paths, options: LintOptions()).filter { $0.rule == .unchangedFromSource }.map {
            "\($0.location.file!.split(separator: "/").suffix(2).first!):\($0.key!)"
        }.sorted()
    }

    @Test func aRespelledTermAndASmallTranslatedTableAreNotReported() throws {
        let root = try TemporaryDirectory()
        func table(_ entries: [(String, String)]) -> String {
            entries.map { "\"\($0.0)\" = \"\($0.1)\";\n" }.joined()
        }
        let english = [
            ("agent", "User agent:"), ("cache", "Enable the cache"), ("size", "Maximum cache size:"),
            ("proxy", "Proxy address:"),
        ]
        try root.write(table(english), to: "en.lproj/Network.strings")
        try root.write(
            table([
                ("agent", "User-Agent:"), ("cache", "Cache aktivieren"), ("size", "Maximale Cachegröße:"),
                ("proxy", "Proxy-Adresse:"),
            ]), to: "de.lproj/Network.strings")
        try root.write(
            table([
                ("agent", "User agent:"), ("cache", "Abilita la cache"), ("size", "Dimensione massima:"),
                ("proxy", "Indirizzo del proxy:"),
            ]), to: "it.lproj/Network.strings")
        // Nepali left the whole table in English: its copy is still one.
        try root.write(table(english), to: "ne.lproj/Network.strings")

        let subtitles = [
            ("downloads", "Downloads:"), ("cancel", "CANCEL"), ("pick", "Please click to select subtitles"),
            ("download", "DOWNLOAD"),
        ]
        try root.write(table(subtitles), to: "en.lproj/Subtitles.strings")
        try root.write(
            table([
                ("downloads", "Downloads:"), ("cancel", "ANNULEER"), ("pick", "Selecteer ondertiteling"),
                ("download", "DOWNLOAD"),
            ]), to: "nl.lproj/Subtitles.strings")
        // A language that translates nothing else of it keeps no loanword.
        try root.write(table(subtitles), to: "lv.lproj/Subtitles.strings")

        #expect(
            unchanged([root.path]) == [
                "lv.lproj:downloads", "lv.lproj:pick", "ne.lproj:agent", "ne.lproj:cache", "ne.lproj:proxy",
                "ne.lproj:size",
            ])
    }

    /// On IINA itself: Italian and Vietnamese `User agent:` and Dutch `Downloads:` are not
    /// reported; Nepali `User agent:` (its network table never translated) still is.
    @Test func theCorpusCasesAreNotReported() throws {
        guard let iina = PackagePaths.shared("corpus/iina") else {
            print("skipped: ../shared/corpus/iina is absent")
            return
        }
        let root = try TemporaryDirectory()
        // Enough languages that translate `User agent:` that it is no term most keep.
        for language in ["en", "it", "vi", "de", "he", "nl", "ne", "fr", "es", "ru", "ja", "pl", "sv"] {
            for name in ["PrefNetworkViewController", "SubChooseViewController"] {
                let path = "\(language).lproj/\(name).strings"
                try root.write(try String(contentsOfFile: iina + "/" + path, encoding: .utf8), to: path)
            }
        }
        let reported = unchanged([root.path])
        #expect(!reported.contains("it.lproj:eN6-Sk-kUa.title"), "\(reported)")
        #expect(!reported.contains("vi.lproj:eN6-Sk-kUa.title"), "\(reported)")
        #expect(!reported.contains("nl.lproj:1Ol-8Y-Pd9.title"), "\(reported)")
        #expect(reported.contains("ne.lproj:eN6-Sk-kUa.title"), "\(reported)")
    }
}
