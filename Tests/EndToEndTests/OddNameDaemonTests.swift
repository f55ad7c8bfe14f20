import Foundation
import TestSupport
import Testing

/// Chaos round 3, odd names: file and directory names holding escape sequences, newlines,
/// bytes that are not UTF-8, and `.lproj` folders named for no language. The real `l10nd`
/// and `l10nctl`: nothing from a name reaches a log line or a text line raw, and every
/// directory skipped for its name is listed in `status` with its reason.
@Suite struct OddNameDaemonTests {
    typealias Fixture = FaultTests.Fixture
    let l10nctl = PackagePaths.executable("l10nctl")

    static let escape = "\u{1B}"

    /// Makes `name` (raw bytes, given as a `printf` format) a directory holding one table.
    static func makeRawDirectory(_ printfName: String, in resources: TemporaryDirectory) throws {
        let script =
            "d=\"$(printf '\(printfName)')\" && mkdir \"$d\" && printf '\"k\" = \"raw\";\\n' > \"$d/Localizable.strings\""
        let result = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: resources.path)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func run(_ arguments: [String], _ f: Fixture) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, arguments + ["--socket", f.daemon.socketPath], environment: ["PATH": "/usr/bin:/bin"])
    }

    @Test func namesAreEscapedInTheLogAndInTextOutput() throws {
        let red = "T\(Self.escape)[31mred"
        let f = try Fixture([
            "en.lproj/Localizable.strings": "\"k\" = \"en\";\n",
            "en.lproj/\(red).strings": "\"k\" = \"red\";\n",
            // A broken file whose name clears the screen and forges a log line: its error is logged.
            "en.lproj/Bad\(Self.escape)[2J\nl10nd: error: forged.strings": "\"k\" = ",
        ])
        #expect(try f.value("k", "en", table: red) == "red")
        let languages = try run(["languages"], f)
        #expect(languages.status == 0, "\(languages.stderr)")
        #expect(!languages.stdout.contains(Self.escape), "\(languages.stdout.debugDescription)")
        #expect(languages.stdout.contains("T\\e[31mred"), "\(languages.stdout.debugDescription)")
        let status = try run(["status"], f)
        #expect(!status.stdout.contains(Self.escape), "\(status.stdout.debugDescription)")
        #expect(status.stdout.contains("Bad\\e[2J\\nl10nd: error: forged.strings"), "\(status.stdout)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
        #expect(!f.daemon.log.contains(Self.escape), "\(f.daemon.log.debugDescription)")
        #expect(f.daemon.log.contains("Bad\\e[2J\\nl10nd: error: forged"), "\(f.daemon.log)")
        let forged = f.daemon.log.split(separator: "\n").filter { $0.hasPrefix("l10nd: error: forged") }
        #expect(forged.isEmpty, "a file name forged a log line: \(forged)")
    }

    @Test func directoriesSkippedForTheirNameAreListedInStatusAndLoggedOncePerBurst() throws {
        let f = try Fixture([
            "en.lproj/Localizable.strings": "\"k\" = \"en\";\n",
            "qaa-x-26.lproj/Localizable.strings": "\"k\" = \"private\";\n",
            "de\n.lproj/Localizable.strings": "\"k\" = \"de\";\n",
        ]) { resources in try Self.makeRawDirectory("fr\\377.lproj", in: resources) }
        func skipped() throws -> [String: String] {
            var found: [String: String] = [:]
            for entry in try f.watcher()["unwatched"] as? [[String: Any]] ?? [] {
                found[entry["path"] as? String ?? "?"] = entry["reason"] as? String
            }
            return found
        }
        let atStart = try skipped()
        #expect(atStart[f.path("qaa-x-26.lproj")] == "not_a_language", "\(atStart)")
        #expect(atStart[f.path("de\n.lproj")] == "not_a_language", "\(atStart)")
        #expect(atStart.values.filter { $0 == "name_not_utf8" }.count == 1, "\(atStart)")
        #expect(atStart.count == 3, "\(atStart)")
        let text = try run(["status"], f).stdout
        #expect(text.contains("\(f.path("de\\n.lproj")): not_a_language"), "\(text)")
        #expect(text.contains("name_not_utf8"), "\(text)")

        // 20 more, made one by one: each listed.
        for index in 0..<20 {
            try f.resources.write("\"k\" = \"x\";\n", to: "qaa-x-\(index).lproj/Localizable.strings")
        }
        #expect(try f.eventually { try f.watcher()["unwatched_count"] as? Int == 23 }, "\((try? f.watcher()) ?? [:])")
        // Renamed to a language: served, and no longer listed.
        #expect(rename(f.path("qaa-x-26.lproj"), f.path("ja.lproj")) == 0)
        #expect(try f.eventually { try f.value("k", "ja") == "private" && skipped()[f.path("qaa-x-26.lproj")] == nil })
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
        // Logged once per burst, not once each: the 20 made one by one are the first of
        // their burst and a line for the rest, a second later (a line each before: 20
        // warnings); never again per rescan or retry.
        let lines = f.daemon.log.split(separator: "\n").filter {
            $0.contains("not a language tag l10nd serves") || $0.contains("directories are not watched")
        }
        #expect(lines.count <= 5, "\(lines.joined(separator: "\n"))")
        #expect(
            lines.contains { $0.contains("more directories are not watched (not_a_language): ") },
            "\(lines.joined(separator: "\n"))")
        #expect(f.daemon.log.components(separatedBy: "qaa-x-26.lproj: qaa-x-26 is not").count == 2, "\(f.daemon.log)")
    }
}
