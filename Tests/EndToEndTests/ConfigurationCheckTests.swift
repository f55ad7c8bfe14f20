import Foundation
import TestSupport
import Testing

/// What the operator wrote is checked, with the built executables: `l10nd --check-config`
/// reports and exits 1, the running daemon warns (log, `status`, `STATUS=`), `--strict`
/// stops it, and `l10nctl --development-language` warns the same way.
@Suite struct ConfigurationCheckTests {
    func check(_ arguments: [String]) throws -> ProcessOutput {
        try ProcessRunner.run(PackagePaths.executable("l10nd"), ["--check-config"] + arguments)
    }

    @Test func aGoodConfigurationChecksClean() throws {
        let output = try check(["--resources", PackagePaths.exampleResources])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("would serve "), "\(output.stdout)")
        #expect(output.stdout.hasSuffix("ok\n"), "\(output.stdout)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    /// `jp` is a well-formed tag but no language: the check names `ja`, CLDR's language of JP.
    @Test func anUnknownLanguageIsReportedWithTheLikelyOne() throws {
        let output = try check(["--resources", PackagePaths.exampleResources, "--development-language", "jp"])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "development_language 'jp' is not a language CLDR knows (did you mean 'ja', the language of region JP?)"
            ),
            "\(output.stderr)")
        // And no root serves it.
        #expect(output.stderr.contains("development_language jp is served by no resource root"), "\(output.stderr)")
    }

    /// `de` over String Catalogs whose sourceLanguage is `en`.
    @Test func aLanguageContradictingACatalogIsReported() throws {
        let output = try check(["--resources", PackagePaths.stringCatalog, "--development-language", "de"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("development_language de contradicts the sourceLanguage en"), "\(output.stderr)")
        #expect(output.stderr.contains("set development_language = en"), "\(output.stderr)")
    }

    /// Every mistake in the file is said at once, each on its `FILE:LINE:` line (the check
    /// stopped at the first, so fixing a file took a run per mistake), and the exit is 2.
    @Test func everyErrorInTheFileIsReported() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-check")
        let file = try directory.write(
            "# three mistakes\nsetle_ms = 20\nresources = \(PackagePaths.exampleResources)\nno equals sign\n"
                + "log_level = loud\nlog_level = info\n",
            to: "l10nd.conf")
        for arguments in [["--check-config", "--config", file], ["--config", file]] {
            let output = try ProcessRunner.run(PackagePaths.executable("l10nd"), arguments, timeout: 20)
            #expect(output.status == 2, "\(output.stderr)")
            let lines = output.stderr.split(separator: "\n").filter { $0.hasPrefix("l10nd: error: \(file):") }
            #expect(
                lines.map { $0.dropFirst("l10nd: error: \(file):".count).prefix { $0 != ":" } } == [
                    "2", "4", "5",
                ],
                "\(output.stderr)")
            #expect(output.stderr.contains("unknown key 'setle_ms'"), "\(output.stderr)")
            #expect(output.stderr.contains("expected 'key = value'"), "\(output.stderr)")
            #expect(output.stderr.contains(":5: log_level: "), "\(output.stderr)")
        }
    }

    /// A configuration file that is not there, or not a file, is said in l10nd's words
    /// (the path, the reason, what to do), not Foundation's "The file couldn't be opened".
    @Test func aMissingConfigurationFileIsSaidWithItsFix() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-check")
        for arguments in [
            ["--config", directory.path + "/nope.conf"], ["--check-config", "--config", directory.path + "/nope.conf"],
        ] {
            let output = try ProcessRunner.run(PackagePaths.executable("l10nd"), arguments, timeout: 20)
            #expect(output.status == 2, "\(output.stderr)")
            #expect(
                output.stderr.hasPrefix(
                    "l10nd: error: \(directory.path)/nope.conf: cannot read the configuration file: there is no such file "
                        + "(give --config the path of an existing l10nd.conf; the package installs /etc/l10nd/l10nd.conf"
                ),
                "\(output.stderr)")
            #expect(!output.stderr.contains("couldn"), "\(output.stderr)")
        }
        let folder = try ProcessRunner.run(PackagePaths.executable("l10nd"), ["--config", directory.path], timeout: 20)
        #expect(folder.status == 2)
        #expect(
            folder.stderr.contains(
                "\(directory.path): cannot read the configuration file: it is a directory, not a file"),
            "\(folder.stderr)")
    }

    @Test func noResourcesAtAllIsAProblemThatNamesTheFix() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-check")
        let config = try directory.write("log_level = info\n", to: "l10nd.conf")
        let output = try check(["--config", config])
        #expect(output.status == 1)
        #expect(output.stderr.contains("no resource directory is configured (give resources = DIR"), "\(output.stderr)")
        #expect(output.stdout.contains("configuration \(config): read"), "\(output.stdout)")
    }

    /// The running daemon says it in the log, `status` and `STATUS=`; `--strict` refuses to start.
    @Test func theDaemonWarnsAndStrictRefuses() throws {
        let systemd = try NotifySocketListener()
        let daemon = try DaemonProcess(
            resources: [PackagePaths.stringCatalog], arguments: ["--development-language", "de"],
            environment: ["NOTIFY_SOCKET": systemd.path])
        let ready = try systemd.waitFor("READY=1") { $0["READY"] == "1" }
        #expect(ready["STATUS"]?.hasPrefix("Warning: development_language de contradicts") == true, "\(ready)")
        let status = try daemon.request(["op": "status"])
        let configuration = try #require(status["configuration"] as? [String: Any])
        let warnings = try #require(configuration["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].contains("sourceLanguage en"), "\(warnings)")
        #expect(daemon.log.contains("warning: configuration: development_language de contradicts"), "\(daemon.log)")
        #expect(daemon.stop() == 0)

        #expect(throws: (any Error).self) {
            _ = try DaemonProcess(
                resources: [PackagePaths.stringCatalog], arguments: ["--development-language", "de", "--strict"],
                startTimeout: 10)
        }
        let strict = try ProcessRunner.run(
            PackagePaths.executable("l10nd"),
            [
                "--resources", PackagePaths.exampleResources, "--development-language", "jp", "--strict", "--socket",
                try TemporaryDirectory(prefix: "l10nd-strict").path + "/s.sock",
            ], timeout: 20)
        #expect(strict.status == 2, "\(strict.stderr)")
        #expect(
            strict.stderr.contains("--strict: development_language 'jp' is not a language CLDR knows"),
            "\(strict.stderr)")
    }

    @Test func l10nctlWarnsOfAnUnknownDevelopmentLanguage() throws {
        let l10nctl = PackagePaths.executable("l10nctl")
        let arguments = ["get", "Hello", "--lang", "fr", "--resources", PackagePaths.exampleResources]
        let warned = try ProcessRunner.run(l10nctl, arguments + ["--development-language", "jp"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(
            warned.stderr.contains(
                "l10nctl: warning: --development-language 'jp' is not a language CLDR knows (did you mean 'ja'"),
            "\(warned.stderr)")
        let strict = try ProcessRunner.run(l10nctl, arguments + ["--development-language", "jp", "--strict"])
        #expect(strict.status == 2, "\(strict.stderr)")
        let clean = try ProcessRunner.run(l10nctl, arguments + ["--development-language", "en"])
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
    }

    /// `development_language = english` (a legacy folder name), `ja_JP` (a locale name) and
    /// `Base` are not BCP 47 tags: each is a configuration error naming the file, the line and
    /// the value, with the tag to write, from `--check-config` and from a daemon starting
    /// with it (an outside tester's find: `english` was taken as `en` without a word).
    @Test(arguments: [
        ("english", "it is the legacy .lproj name of en: write en"), ("ja_JP", "write ja-JP"),
        ("Base", "Base is Xcode's base localization, not a language"),
    ])
    func aDevelopmentLanguageNotWrittenAsBCP47IsAConfigurationError(value: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "# the examples\nresources = \(PackagePaths.exampleResources)\ndevelopment_language = \(value)\n",
            to: "l10nd.conf")
        let expected =
            "\(file):3: development_language: '\(value)' is not a BCP 47 language tag such as en or pt-BR: \(reason)"
        let checked = try check(["--config", file])
        #expect(checked.status == 2, "\(checked)")
        #expect(checked.stderr.contains(expected), "\(checked.stderr)")
        let started = try ProcessRunner.run(
            PackagePaths.executable("l10nd"), ["--config", file, "--socket", directory.path + "/l10nd.sock"],
            timeout: 20)
        #expect(started.status == 2, "\(started)")
        #expect(started.stderr.contains(expected), "\(started.stderr)")
    }

    /// Every BCP 47 spelling is taken, in any letter case.
    @Test(arguments: ["en", "pt-BR", "pt-br", "zh-Hant-TW"])
    func aDevelopmentLanguageWrittenAsBCP47IsTaken(value: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "resources = \(PackagePaths.exampleResources)\ndevelopment_language = \(value)\n", to: "l10nd.conf")
        let checked = try check(["--config", file])
        #expect(!checked.stderr.contains("BCP 47"), "\(checked.stderr)")
        #expect(checked.status != 2, "\(checked)")
    }
}
