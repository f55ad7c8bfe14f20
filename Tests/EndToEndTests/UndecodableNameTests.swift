import Foundation
import TestSupport
import Testing

/// A file whose name is not UTF-8 inside an `.lproj` was skipped with no log line, `status`
/// entry or lint finding; at a root's level one was listed as an unwatched *directory*. Now
/// each is said as the file or directory it is, its bytes shown (`caf\xE9.strings`), in the
/// log, `status` and lint. The real `l10nd` and `l10nctl` over names made with `printf`.
@Suite struct UndecodableNameTests {
    typealias Fixture = FaultTests.Fixture
    let l10nctl = PackagePaths.executable("l10nctl")

    static let files = [
        "en.lproj/Localizable.strings": "\"k\" = \"en\";\n", "de.lproj/Localizable.strings": "\"k\" = \"de\";\n",
    ]

    /// `caf<E9>.strings` in `de.lproj`, `Root<FF>.xcstrings` and the directory `x<FF>y` at the root.
    static func makeOddNames(in resources: TemporaryDirectory) throws {
        let script =
            "printf '\"k\" = \"v\";' > \"de.lproj/$(printf 'caf\\351.strings')\" && "
            + "printf '{}' > \"$(printf 'Root\\377.xcstrings')\" && mkdir \"$(printf 'x\\377y')\""
        let result = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: resources.path)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func theDaemonListsEachAsTheFileOrDirectoryItIs() throws {
        let f = try Fixture(Self.files) { try Self.makeOddNames(in: $0) }
        let listed = try f.watcher()["unwatched"] as? [[String: Any]] ?? []
        let byMessage = Dictionary(
            uniqueKeysWithValues: listed.map { ($0["message"] as? String ?? "", $0["kind"] as? String ?? "") })
        let file = f.path("de.lproj/caf\\xE9.strings") + ": the file's name is not UTF-8, so it is not read (rename it)"
        let catalog = f.path("Root\\xFF.xcstrings") + ": the file's name is not UTF-8, so it is not read (rename it)"
        let directory =
            f.path("x\\xFFy") + ": the directory's name is not UTF-8, so it is neither read nor watched (rename it)"
        #expect(byMessage == [file: "file", catalog: "file", directory: "directory"], "\(listed)")
        #expect(listed.allSatisfy { $0["reason"] as? String == "name_not_utf8" }, "\(listed)")
        let status = try ProcessRunner.run(l10nctl, ["status", "--socket", f.daemon.socketPath])
        #expect(status.stdout.contains("name_not_utf8 [file]: \(file)\n"), "\(status.stdout)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
        for line in [file, catalog, directory] { #expect(f.daemon.log.contains(line), "\(f.daemon.log)") }
    }

    @Test func lintReportsEachAtTheDirectoryHoldingIt() throws {
        let resources = try TemporaryDirectory()
        for (path, text) in Self.files { try resources.write(text, to: path) }
        try Self.makeOddNames(in: resources)
        let lint = try L10nctl.lint(resources.path)
        let output = lint.output
        let findings = lint.findings.filter {
            ($0["message"] as? String)?.contains("is not UTF-8") == true
        }
        let summary = Set(findings.map { "\($0["rule"]!) \($0["file"]!): \($0["message"]!)" })
        #expect(
            summary == [
                "skipped-name \(resources.path)/de.lproj: \(resources.path)/de.lproj/caf\\xE9.strings: the file's name is not "
                    + "UTF-8, so it is not read (rename it)",
                "skipped-name \(resources.path): \(resources.path)/Root\\xFF.xcstrings: the file's name is not UTF-8, so it is "
                    + "not read (rename it)",
                "skipped-name \(resources.path): \(resources.path)/x\\xFFy: the directory's name is not UTF-8, so it is "
                    + "neither read nor watched (rename it)",
            ], "\(output.stdout)")
        #expect(output.status == 1)
    }
}
