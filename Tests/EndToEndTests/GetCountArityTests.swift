import Foundation
import TestSupport
import Testing

/// `l10nctl get KEY --count N` on a format of two arguments (an outside tester's find: the
/// second conversion was printed as `%2$ld` with exit 0). One count per argument fills them
/// all; fewer counts than the format reads is a failure that says how many it needs, both
/// from the files and through a running l10nd.
@Suite struct GetCountArityTests {
    static let stringsdict = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>files.folders</key><dict>
        <key>NSStringLocalizedFormatKey</key><string>%1$#@files@ in %2$#@folders@</string>
        <key>files</key><dict>
        <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key><string>ld</string>
        <key>one</key><string>%1$ld file</string><key>other</key><string>%1$ld files</string>
        </dict>
        <key>folders</key><dict>
        <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key><string>ld</string>
        <key>one</key><string>%2$ld folder</string><key>other</key><string>%2$ld folders</string>
        </dict></dict>
        </dict></plist>

        """

    static func resources() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        try root.write(stringsdict, to: "en.lproj/Localizable.stringsdict")
        try root.write("\"progress\" = \"%d of %d\";\n", to: "en.lproj/Localizable.strings")
        return root
    }

    func l10nctl(_ arguments: [String]) throws -> ProcessOutput {
        try ProcessRunner.run(PackagePaths.executable("l10nctl"), arguments, environment: ["PATH": "/usr/bin:/bin"])
    }

    /// Where `get` reads: the files, or a daemon serving them.
    static func sources(_ root: TemporaryDirectory) throws -> [(
        name: String, arguments: [String], daemon: DaemonProcess?
    )] {
        let daemon = try DaemonProcess(resources: [root.path])
        return [("files", ["--resources", root.path], nil), ("daemon", ["--socket", daemon.socketPath], daemon)]
    }

    @Test func oneCountPerArgumentFillsEveryArgument() throws {
        let root = try Self.resources()
        for source in try Self.sources(root) {
            let plural = try l10nctl(
                ["get", "files.folders", "--lang", "en", "--count", "3", "--count", "1"] + source.arguments)
            #expect(plural.status == 0 && plural.stdout == "3 files in 1 folder\n", "\(source.name): \(plural)")
            let progress = try l10nctl(
                ["get", "progress", "--lang", "en", "--count", "2", "--count", "5"] + source.arguments)
            #expect(progress.status == 0 && progress.stdout == "2 of 5\n", "\(source.name): \(progress)")
        }
    }

    @Test func fewerCountsThanTheFormatReadsFailLoudly() throws {
        let root = try Self.resources()
        for source in try Self.sources(root) {
            for key in ["files.folders", "progress"] {
                let result = try l10nctl(["get", key, "--lang", "en", "--count", "3"] + source.arguments)
                #expect(result.status == 1, "\(source.name) \(key): \(result)")
                #expect(
                    result.stderr.contains("the format reads 2 arguments, but only 1 given")
                        && result.stderr.contains("give --count once per argument"),
                    "\(source.name) \(key): \(result.stderr)")
            }
        }
    }

    /// A `--count` that nothing takes (a plain text, no plural forms) is printed as Foundation
    /// would print it, exit 0, with a warning: the count changed nothing. A plural form that
    /// leaves the number out (`one` = "a file") took the count to be chosen: no warning.
    @Test func aCountNothingTakesIsAWarning() throws {
        let root = try Self.resources()
        try root.write(
            "\"quit\" = \"Quit\";\n\"progress\" = \"%d of %d\";\n", to: "en.lproj/Localizable.strings")
        try root.write(
            Self.stringsdict.replacing("<string>%1$ld file</string>", with: "<string>a file</string>"),
            to: "en.lproj/Localizable.stringsdict")
        let plain = try l10nctl(["get", "quit", "--lang", "en", "--count", "3", "--resources", root.path])
        #expect(plain.status == 0 && plain.stdout == "Quit\n", "\(plain)")
        #expect(
            plain.stderr.contains("'quit' has no plural forms and its value no conversion for --count to fill"),
            "\(plain.stderr)")
        let form = try l10nctl(
            ["get", "files.folders", "--lang", "en", "--count", "1", "--count", "2", "--resources", root.path])
        #expect(!form.stderr.contains("no plural forms"), "\(form)")
    }

    /// No `--count` asks for the format itself: printed as it is, exit 0.
    @Test func noCountPrintsTheFormat() throws {
        let root = try Self.resources()
        let result = try l10nctl(["get", "progress", "--lang", "en", "--resources", root.path])
        #expect(result.status == 0 && result.stdout == "%d of %d\n", "\(result)")
    }
}
