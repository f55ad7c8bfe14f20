import Foundation
import TestSupport
import Testing

/// Missing-key skeletons a translator can use (issue 23 item 7): source text as the value,
/// plural and String Catalog keys as export writes them, importable as they are, and a key
/// translated since it was reported left out.
@Suite struct MissingSkeletonTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String], socket: String) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": socket], timeout: 60)
    }

    @Test func skeletonsCarrySourceTextPluralsAndCatalogKeysAndImportBack() throws {
        let root = try TemporaryDirectory()
        try root.write("\"save\" = \"Save the file\";\n\"quit\" = \"Quit\";\n", to: "r/en.lproj/Localizable.strings")
        try root.write("\"quit\" = \"終了\";\n", to: "r/ja.lproj/Localizable.strings")
        try root.write(ImportAddsTests.english, to: "r/en.lproj/Localizable.stringsdict")
        try root.write(ImportAddsTests.catalog, to: "r/Menu.xcstrings")
        let daemon = try DaemonProcess(resources: [root.path + "/r"])
        let client = try daemon.connect()
        for (key, table) in [
            ("save", "Localizable"), ("files", "Localizable"), ("Open", "Menu"), ("nowhere", "Localizable"),
        ] {
            _ = try client.request(["op": "lookup", "key": key, "lang": "ja", "table": table])
        }

        let strings = try run(["missing", "--format", "strings", "--lang", "ja"], socket: daemon.socketPath)
        #expect(strings.stdout.contains("\"save\" = \"Save the file\";"), "\(strings.stdout)")
        #expect(strings.stdout.contains("\"nowhere\" = \"nowhere\";"), "\(strings.stdout)")
        #expect(
            strings.stdout.contains("\"files\" is a plural entry: l10nctl missing --format po"), "\(strings.stdout)")
        #expect(!strings.stdout.contains("\"files\" = "), "\(strings.stdout)")
        // Left out of the file, so named where a script or a person sees it, and not exit 0.
        #expect(strings.status == 1, "\(strings)")
        #expect(
            strings.stderr
                == "l10nctl: error: 1 plural key has no .strings form and is not in the skeleton: Localizable/files; "
                + "l10nctl missing --lang ja --format po writes them with their plural forms\n", "\(strings.stderr)")

        let po = try run(["missing", "--format", "po", "--lang", "ja"], socket: daemon.socketPath)
        #expect(po.status == 0, "\(po.stderr)")
        #expect(
            po.stdout.contains("msgctxt \"en.lproj/Localizable.stringsdict|/files:dict/count:dict\""), "\(po.stdout)")
        #expect(po.stdout.contains("msgctxt \"Menu.xcstrings|Open\""), "\(po.stdout)")
        #expect(po.stdout.contains("#. asked 1 time; found in no language\nmsgctxt \"Localizable\"\nmsgid \"nowhere\""))
        #expect(!po.stdout.contains("msgid \"Quit\""), "\(po.stdout)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") {
            let file = try root.write(po.stdout, to: "ja.po")
            #expect(try ProcessRunner.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", file]).status == 0)
        }

        // The translator fills in the export-shaped messages; import places them as they are.
        let filled = ImportAddsTests.fill(
            po.stdout.components(separatedBy: "\n\n").filter { !$0.contains("msgid \"nowhere\"") }
                .joined(separator: "\n\n"),
            // Japanese has `other` alone; as gettext, the message's msgid is English's singular.
            ["Save the file": ["ファイルを保存"], "%ld file": ["%ld 個のファイル"], "Open": ["開く"]])
        let file = try root.write(filled, to: "ja-filled.po")
        let imported = try ProcessRunner.run(l10nctl, ["import", root.path + "/r", file])
        #expect(imported.status == 0 && imported.stderr == "3 values changed in 3 files\n", "\(imported)")

        // Translated since: no longer missing, in any format.
        let report = try run(["missing"], socket: daemon.socketPath)
        #expect(report.stdout == "ja\tLocalizable\tnowhere\t1\t-\n", "\(report.stdout)")
    }
}
