import Foundation
import LocalizationCore
import TestSupport
import Testing

/// The one rule of what is skipped for its name (``SkippedName``), as the scanner applies it:
/// what lint, coverage, report, `--check-config` and the daemon's watcher all name.
@Suite struct SkippedNameTests {
    @Test(arguments: ["qaa-x-26.lproj", "de_DE-typo.lproj", "de\n.lproj", "x.lproj", "de-u-nu-arab.lproj"])
    func aFolderNamedForNoLanguageIsSkipped(_ name: String) throws {
        let resources = try TemporaryDirectory()
        try resources.write("en.lproj/Localizable.strings")
        try resources.write("\(name)/Localizable.strings")
        // A catalog in it is not read either: the watcher never enters the folder.
        try resources.write("{}", to: "\(name)/Extra.xcstrings")
        let survey = ResourceScanner.survey(directory: resources.path, rootIndex: 0)
        #expect(survey.skipped.map(\.path) == [resources.path + "/" + name])
        #expect(survey.skipped.first?.reason == .notALanguage)
        #expect(survey.skipped.first?.existingPath == resources.path + "/" + name)
        #expect(survey.files.map(\.path) == [resources.path + "/en.lproj/Localizable.strings"])
    }

    @Test(arguments: ["en_GB.lproj", "zh-Hans.lproj", "English.lproj", "Base.lproj", "pt-BR.lproj", "sr-Latn.lproj"])
    func aLanguageFolderIsRead(_ name: String) throws {
        let resources = try TemporaryDirectory()
        try resources.write("\(name)/Localizable.strings")
        let survey = ResourceScanner.survey(directory: resources.path, rootIndex: 0)
        #expect(survey.skipped.isEmpty, "\(survey.skipped)")
        #expect(survey.files.count == 1)
    }

    /// Deeper down, and named itself as the directory to scan (`lint qaa-x-26.lproj`), alike;
    /// a file named like a folder is no folder.
    @Test func nestedOrNamedItIsSkippedAndAFileIsNot() throws {
        let resources = try TemporaryDirectory()
        try resources.write("App/Sub/qaa-x-1.lproj/Localizable.strings")
        try resources.write("plain", to: "App/notes.lproj")
        let nested = ResourceScanner.survey(directory: resources.path, rootIndex: 0)
        #expect(nested.skipped.map(\.path) == [resources.path + "/App/Sub/qaa-x-1.lproj"])
        let named = ResourceScanner.survey(directory: resources.path + "/App/Sub/qaa-x-1.lproj", rootIndex: 0)
        #expect(named.skipped.map(\.reason) == [.notALanguage])
        #expect(named.files.isEmpty)
    }

    /// A name that is not UTF-8 is reported at the directory holding it, its bytes shown.
    @Test func aNameThatIsNotUTF8IsReportedAtItsDirectory() throws {
        let resources = try TemporaryDirectory()
        try resources.write("en.lproj/Localizable.strings")
        let name = [UInt8]("fr".utf8) + [0xFF] + [UInt8](".lproj".utf8)
        let path = [UInt8]((resources.path + "/").utf8) + name + [0]
        #expect(
            path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } } == 0
        )
        let survey = ResourceScanner.survey(directory: resources.path, rootIndex: 0)
        let skipped = try #require(survey.skipped.first)
        #expect(survey.skipped.count == 1)
        #expect(skipped.reason == .nameNotUTF8)
        #expect(skipped.displayPath == resources.path + "/fr\\xFF.lproj")
        #expect(skipped.existingPath == resources.path)
        #expect(skipped.isDirectory)
    }
}
