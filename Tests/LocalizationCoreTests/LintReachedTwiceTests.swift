import Foundation
import LocalizationCore
import TestSupport
import Testing

/// A file lint reaches by two paths (the same directory twice, `./` or `..` in a path, a
/// symbolic link) is linted once, under the path it was first reached by.
@Suite struct LintReachedTwiceTests {
    @Test func eachFileIsLintedOnceHoweverItIsReached() throws {
        let root = try TemporaryDirectory()
        try root.write("\"a\" = \"A\";\n\"b\" = \"%@\";\n", to: "en.lproj/L.strings")
        try root.write("\"z\" = \"Z\";\n", to: "en.lproj/M.strings")
        let german = try root.write("\"b\" = \"%d\";\n", to: "de.lproj/L.strings")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/link.strings", withDestinationPath: german)
        let once = ResourceLinter.lint(paths: [root.path])
        #expect(once.map(\.rule) == [.untranslated, .placeholderMismatch, .untranslated], "\(once)")
        for paths in [
            [root.path, root.path], [root.path + "/./de.lproj", root.path], [german, root.path],
            [root.path, root.path + "/de.lproj/../de.lproj/L.strings"], [root.path, root.path + "/link.strings"],
        ] {
            let findings = ResourceLinter.lint(paths: paths)
            #expect(findings.map(\.rule) == once.map(\.rule), "\(paths): \(findings)")
            #expect(findings.map(\.message) == once.map(\.message), "\(paths): \(findings)")
        }
    }
}
