import Foundation
import TestSupport
import Testing

/// Plural selection and pseudo-languages through a real `l10nd`, and `l10nctl coverage`.
@Suite struct PluralDaemonTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    @Test func daemonSelectsThePluralFormOnRequest() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let reply = try daemon.request(["op": "lookup", "key": "%d files", "lang": "ru", "count": 21])
        #expect(reply["value"] as? String == "%d файл")
        let arabic = try daemon.request(["op": "lookup", "key": "%d files", "lang": "ar", "count": 0])
        #expect(arabic["value"] as? String == "لا توجد ملفات")
        let result = try ProcessRunner.run(
            l10nctl, ["get", "%d files", "--lang", "ru", "--count", "21", "--socket", daemon.socketPath],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.stdout == "21 файл\n")
    }

    /// Fractional counts cross the wire as decimals, a JSON number or decimal text: `1.5`
    /// is `one` in French and `other` in English, and `1.0` (one visible fraction digit) is
    /// `other` in English where `1` is `one`.
    @Test func daemonSelectsByDecimalCounts() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let cases: [(language: String, count: Any, expected: String)] = [
            ("fr", 1.5, "%d fichier"), ("en", 1.5, "%d files"), ("en", "1.0", "%d files"), ("en", 1, "%d file"),
            ("fr", "1.50", "%d fichier"), ("ru", "1.5", "%d файла"),
        ]
        for (language, count, expected) in cases {
            let reply = try daemon.request(["op": "lookup", "key": "%d files", "lang": language, "count": count])
            #expect(reply["value"] as? String == expected, "\(language) \(count): \(reply)")
        }
    }

    @Test func daemonServesPseudoLanguages() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let accented = try daemon.request(["op": "lookup", "key": "多言語化", "lang": "en-XA"])
        #expect(accented["value"] as? String == "[Ḿûļţîļîñĝûåļîžåţîöñ one two]")
        #expect(accented["lang"] as? String == "en-XA")
        let rtl = try daemon.request(["op": "lookup", "key": "多言語化", "lang": "ar-XB"])
        #expect(rtl["value"] as? String == "\u{200F}\u{202E}Multilingualization\u{202C}\u{200F}")
        let table = try daemon.request(["op": "table", "lang": "en-XA"])
        let entries = try #require(table["entries"] as? [String: String])
        #expect(entries["多言語化"] == "[Ḿûļţîļîñĝûåļîžåţîöñ one two]")
    }

    @Test func coverageAsTableAndJSON() throws {
        let text = try ProcessRunner.run(
            l10nctl, ["coverage", PackagePaths.exampleResources], environment: ["PATH": "/usr/bin:/bin"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ja "))
        #expect(text.stdout.contains("█"))
        let json = try ProcessRunner.run(
            l10nctl, ["coverage", PackagePaths.exampleResources, "--format", "json"],
            environment: ["PATH": "/usr/bin:/bin"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let languages = try #require(object["languages"] as? [[String: Any]])
        let french = try #require(languages.first { $0["lang"] as? String == "fr" })
        #expect(french["needs_review"] as? Int == 1)
        #expect((french["translated"] as? Int ?? 0) > 0)
        let bad = try ProcessRunner.run(
            l10nctl, ["coverage", "--format", "xml", "x"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(bad.status == 2)
    }
}
