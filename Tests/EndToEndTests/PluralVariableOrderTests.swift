import Foundation
import TestSupport
import Testing

/// A `.stringsdict` translation that puts its plural variables in another order without
/// positions (`%#@folders@中有%#@files@` for `%#@files@ in %#@folders@`) gives each the
/// other's count, since each `%#@var@` takes the next argument: "1 个文件夹中有5 个文件" for
/// 1 file in 5 folders (an outside tester's find). Lint reports it as an error naming the
/// fix, and import refuses it as it refuses a broken placeholder; with positions
/// (`%2$#@folders@中有%1$#@files@`) it is right, and served so.
@Suite struct PluralVariableOrderTests {
    static let key = "%d files in %d folders"
    static let swapped = "%#@folders@中有%#@files@"
    static let positioned = "%2$#@folders@中有%1$#@files@"

    static func stringsdict(_ format: String, files: [(String, String)], folders: [(String, String)]) -> String {
        func variable(_ name: String, _ forms: [(String, String)]) -> String {
            "<key>\(name)</key><dict>"
                + "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                + "<key>NSStringFormatValueTypeKey</key><string>d</string>"
                + forms.map { "<key>\($0.0)</key><string>\($0.1)</string>" }.joined() + "</dict>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\n"
            + "<key>\(key)</key><dict>\n<key>NSStringLocalizedFormatKey</key><string>\(format)</string>\n"
            + variable("files", files) + variable("folders", folders) + "</dict></dict></plist>\n"
    }

    /// `r/` with English and a Chinese translation whose format is `chinese`.
    func project(in root: TemporaryDirectory, chinese: String) throws -> String {
        try root.write(
            Self.stringsdict(
                "%#@files@ in %#@folders@", files: [("one", "%d file"), ("other", "%d files")],
                folders: [("one", "%d folder"), ("other", "%d folders")]),
            to: "r/en.lproj/Localizable.stringsdict")
        return try root.write(
            Self.stringsdict(chinese, files: [("other", "%d 个文件")], folders: [("other", "%d 个文件夹")]),
            to: "r/zh-Hans.lproj/Localizable.stringsdict")
    }

    @Test func lintReportsTheSwapAsAnErrorNamingTheFix() throws {
        let root = try TemporaryDirectory()
        let chinese = try project(in: root, chinese: Self.swapped)
        let lint = try L10nctl.run("lint", root.path + "/r")
        #expect(lint.status != 0, "\(lint.stdout)")
        let line = lint.stdout.split(separator: "\n").first { $0.contains("[placeholder-mismatch]") }
        #expect(line?.contains(chinese) == true, "\(lint.stdout)")
        #expect(line?.contains("error") == true, "\(lint.stdout)")
        #expect(
            line?.contains("take other arguments than in the development language") == true
                && line?.contains("%2$#@folders@ … %1$#@files@") == true, "\(lint.stdout)")
    }

    @Test func positionsMakeItRightAndLintClean() throws {
        let root = try TemporaryDirectory()
        _ = try project(in: root, chinese: Self.positioned)
        let lint = try L10nctl.run("lint", root.path + "/r")
        #expect(!lint.stdout.contains("[placeholder-mismatch]"), "\(lint.stdout)")
        let get = try L10nctl.run(
            "get", Self.key, "--lang", "zh-Hans", "--count", "1", "--count", "5", "--resources", root.path + "/r")
        #expect(get.stdout == "5 个文件夹中有1 个文件\n", "\(get.stdout)\(get.stderr)")
    }

    @Test func importRefusesTheSwapUnlessForced() throws {
        let root = try TemporaryDirectory()
        let chinese = try project(in: root, chinese: Self.positioned)
        let file = root.path + "/zh.xliff"
        #expect(try L10nctl.run("export", root.path + "/r", "--lang", "zh-Hans", "--output", file).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        let swapped = exported.replacing(Self.positioned + "</target>", with: Self.swapped + "</target>")
        #expect(swapped != exported, "\(exported)")
        try swapped.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try String(contentsOfFile: chinese, encoding: .utf8)

        let result = try L10nctl.run("import", root.path + "/r", file)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("l10nctl: error: \(file): en.lproj/Localizable.stringsdict: unit ")
                && result.stderr.contains("NSStringLocalizedFormatKey")
                && result.stderr.contains("%2$#@folders@ … %1$#@files@")
                && result.stderr.contains("not written (--force writes it)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: chinese, encoding: .utf8) == before)

        let forced = try L10nctl.run("import", root.path + "/r", file, "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.contains("l10nctl: warning: en.lproj/Localizable.stringsdict: unit "), "\(forced.stderr)")
        #expect(try String(contentsOfFile: chinese, encoding: .utf8).contains(Self.swapped))
    }
}
