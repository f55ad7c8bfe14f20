import Foundation
import TestSupport
import Testing

/// Misconfiguration is said out loud by the real executables: a resource directory that is
/// missing or empty, a key that is nowhere with `--strict`, a tag no folder matches, a daemon
/// serving from a root that is gone; and a short-lived client's last miss is not lost.
@Suite struct FailLoudlyTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, arguments, environment: ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new })
    }

    @Test func getWithAResourceDirectoryThatDoesNotExistFails() throws {
        let result = try run(["get", "x", "--resources", "/nonexistent-l10nd-root"])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(
            result.stderr
                == "l10nctl: error: resource directory /nonexistent-l10nd-root does not exist (give the directory that holds the xx.lproj folders)\n"
        )
    }

    @Test func getWithAResourceDirectoryHoldingNoLanguageFails() throws {
        let empty = try TemporaryDirectory()
        try empty.write("\"k\" = \"v\";\n", to: "Localizable.strings")  // not in an .lproj: no language
        let result = try run(["get", "k", "--resources", empty.path, "--resources", PackagePaths.exampleResources])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("resource directory \(empty.path) holds no language"), "\(result.stderr)")
    }

    /// Outside testers: a root listed twice was reported as holding no language the second
    /// time, and a root that is a file as missing. Now the first is a duplicate, read once (a
    /// warning), and the second "not a directory": from `l10nctl get` and from the daemon.
    @Test func aRootListedTwiceIsADuplicateAndAFileIsNotADirectory() throws {
        let scratch = try TemporaryDirectory()
        let file = try scratch.write("\"k\" = \"v\";\n", to: "Localizable.strings")
        let roots = PackagePaths.exampleResources
        let twice = try run(["get", "多言語化", "--lang", "de", "--resources", roots, "--resources", roots + "/"])
        #expect(twice.status == 0 && twice.stdout == "Mehrsprachigkeit\n", "\(twice)")
        #expect(
            twice.stderr
                == "l10nctl: warning: resource directory \(roots)/ is listed twice: it is read once, where it is first listed\n",
            "\(twice.stderr)")
        let asFile = try run(["get", "k", "--resources", file])
        #expect(asFile.status == 1, "\(asFile)")
        #expect(
            asFile.stderr
                == "l10nctl: error: resource directory \(file) is not a directory (give the directory that holds the xx.lproj folders)\n",
            "\(asFile.stderr)")

        let daemon = try DaemonProcess(resources: [roots, roots + "/", file])
        let status = try daemon.request(["op": "status"])
        let errors = (status["errors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(!errors.contains { $0.contains("holds no language") }, "\(errors)")
        #expect(errors.contains { $0.contains("the resource root is not a directory") }, "\(status)")
        #expect(!errors.contains { $0.contains("does not exist") }, "\(errors)")
        let problems = status["problems"] as? [String] ?? []
        #expect(problems == ["resource root \(file) is not a directory (fix resources=)"], "\(problems)")
        #expect(
            daemon.log.contains(
                "resource directory \(roots)/ is listed twice: it is read once, where it is first listed"),
            "\(daemon.log)")
        let watcher = try #require(status["watcher"] as? [String: Any])
        #expect(watcher["missing_roots"] as? [String] == [], "\(watcher)")
        #expect(watcher["not_directory_roots"] as? [String] == [file], "\(watcher)")
        #expect(try daemon.request(["op": "lookup", "key": "保存", "lang": "de"])["value"] as? String == "Sichern")
    }

    @Test func aMissingDirectoryInL10NResourcesIsAWarning() throws {
        let result = try run(
            ["get", "多言語化", "--lang", "de"],
            environment: ["L10N_RESOURCES": "/nonexistent-l10nd-root:" + PackagePaths.exampleResources])
        #expect(result.status == 0 && result.stdout == "Mehrsprachigkeit\n", "\(result)")
        #expect(result.stderr.contains("l10nctl: warning: resource directory /nonexistent-l10nd-root does not exist"))
    }

    @Test func strictFailsOnAMissFromFilesAndFromTheDaemon() throws {
        let files = try run(["get", "nowhere", "--strict", "--resources", PackagePaths.exampleResources])
        #expect(files.status == 1 && files.stdout == "nowhere\n", "\(files)")
        #expect(files.stderr.contains("'nowhere' is in no language of the chain (--strict)"), "\(files.stderr)")
        let found = try run(["get", "多言語化", "--strict", "--lang", "de", "--resources", PackagePaths.exampleResources])
        #expect(found.status == 0 && found.stdout == "Mehrsprachigkeit\n", "\(found)")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let viaDaemon = try run(["get", "nowhere", "--strict", "--socket", daemon.socketPath])
        #expect(viaDaemon.status == 1, "\(viaDaemon)")
    }

    /// `jp` is a well-formed tag, but no folder is Japanese by that name: said on stderr,
    /// from the files and through the daemon; a tag that matches says nothing.
    @Test func aTagNoLanguageMatchesIsWarned() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        for source in [["--resources", PackagePaths.exampleResources], ["--socket", daemon.socketPath]] {
            let result = try run(["get", "多言語化", "--lang", "jp"] + source)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stderr.contains("l10nctl: warning: no language served matches 'jp'"),
                "\(source): \(result.stderr)")
            let matched = try run(["get", "多言語化", "--lang", "ja-JP"] + source)
            #expect(matched.stderr.isEmpty, "\(source): \(matched.stderr)")
        }
    }

    /// A root that is not there makes the daemon degraded: `status`, `l10nctl status`, the
    /// `STATUS=` line systemd shows, the log and `l10nd_degraded` all say so.
    @Test func aMissingRootMakesTheDaemonDegraded() throws {
        let systemd = try NotifySocketListener()
        let daemon = try DaemonProcess(
            resources: [PackagePaths.exampleResources, "/nonexistent-l10nd-root"],
            environment: ["NOTIFY_SOCKET": systemd.path])
        let ready = try systemd.waitFor("READY=1") { $0["READY"] == "1" }
        #expect(
            ready["STATUS"]?.hasPrefix("Degraded: resource root /nonexistent-l10nd-root does not exist") == true,
            "\(ready)")
        #expect(ready["STATUS"]?.contains("Serving 10 languages") == true, "\(ready)")
        let status = try daemon.request(["op": "status"])
        #expect(status["degraded"] as? Bool == true, "\(status)")
        let problems = try #require(status["problems"] as? [String])
        #expect(problems.count == 1 && problems[0].contains("/nonexistent-l10nd-root"), "\(problems)")
        let text = try run(["status", "--socket", daemon.socketPath])
        #expect(
            text.stdout.hasPrefix("DEGRADED: resource root /nonexistent-l10nd-root does not exist"), "\(text.stdout)")
        #expect(daemon.log.contains("warning: degraded: resource root /nonexistent-l10nd-root"), "\(daemon.log)")
        let metrics = try MetricsExposition(try run(["metrics", "--socket", daemon.socketPath]).stdout)
        #expect(metrics["l10nd_degraded"] == 1 && metrics["l10nd_missing_roots"] == 1)
    }

    @Test func aDaemonServingNoLanguageIsDegraded() throws {
        let empty = try TemporaryDirectory()
        let systemd = try NotifySocketListener()
        let daemon = try DaemonProcess(resources: [empty.path], environment: ["NOTIFY_SOCKET": systemd.path])
        let ready = try systemd.waitFor("READY=1") { $0["READY"] == "1" }
        #expect(ready["STATUS"]?.hasPrefix("Degraded: no language is served") == true, "\(ready)")
        let status = try daemon.request(["op": "status"])
        #expect(status["degraded"] as? Bool == true, "\(status)")
        let healthy = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let fine = try healthy.request(["op": "status"])
        #expect(fine["degraded"] as? Bool == false && (fine["problems"] as? [Any])?.isEmpty == true, "\(fine)")
    }

    /// In cached mode misses are sent every 200 ms; a process that is done sooner sends
    /// them on its way out: here through the localizer's release when `get` returns or
    /// fails (the exit hook, for `Localizer.shared`, which is never released, is tested in
    /// `MissReporterExitTests`).
    @Test func aShortLivedClientsLastMissReachesTheReport() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let cached = ["L10N_MODE": "mapped"]
        let strict = try run(
            ["get", "gone-at-exit", "--strict", "--lang", "ja", "--socket", daemon.socketPath], environment: cached)
        #expect(strict.status == 1, "\(strict)")
        let plain = try run(
            ["get", "gone-on-return", "--lang", "ja", "--socket", daemon.socketPath], environment: cached)
        #expect(plain.status == 0, "\(plain)")
        let missing = try daemon.request(["op": "missing"])
        let keys = Set(((missing["missing"] as? [[String: Any]]) ?? []).compactMap { $0["key"] as? String })
        // Whether the lookup read the mapped generation (then only the report reached the
        // daemon) or was asked before the `map` reply came, the miss is in the report.
        #expect(keys == ["gone-at-exit", "gone-on-return"], "\(missing)")
    }
}
