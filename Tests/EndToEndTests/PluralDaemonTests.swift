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

    /// Fractional counts cross the wire as decimals, a JSON number or decimal text. A
    /// variable that prints its count with `%d` selects by the integral part, the number it
    /// prints (docs/PLURALS.md; issue 25: `1.5` chose "%d files" and printed "1 files"):
    /// `1.5`, `1.0` and `1.50` are `one`, in English as in French, and Russian 21.9 is `one`
    /// (21). A `%.1f` variable keeps the fraction: `1.5` is `other` in English, `one` in
    /// French, and `1.0` (one visible fraction digit) `other` in English.
    @Test func daemonSelectsByDecimalCounts() throws {
        let resources = try TemporaryDirectory()
        func hours(_ one: String, _ other: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>%.1f hours</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@h@</string>
            <key>h</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>.1f</string>
            <key>one</key><string>\(one)</string><key>other</key><string>\(other)</string>
            </dict></dict></dict></plist>
            """
        }
        try resources.write(hours("%.1f hour", "%.1f hours"), to: "en.lproj/Hours.stringsdict")
        try resources.write(hours("%.1f heure", "%.1f heures"), to: "fr.lproj/Hours.stringsdict")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources, resources.path])
        let cases: [(language: String, key: String, count: Any, expected: String)] = [
            ("fr", "%d files", 1.5, "%d fichier"), ("en", "%d files", 1.5, "%d file"),
            ("en", "%d files", "1.0", "%d file"), ("en", "%d files", 1, "%d file"),
            ("en", "%d files", 2.5, "%d files"), ("fr", "%d files", "1.50", "%d fichier"),
            ("ru", "%d files", "21.9", "%d файл"), ("ru", "%d files", "1.5", "%d файл"),
            ("en", "%.1f hours", 1.5, "%.1f hours"), ("en", "%.1f hours", "1.0", "%.1f hours"),
            ("en", "%.1f hours", 1, "%.1f hour"), ("fr", "%.1f hours", 1.5, "%.1f heure"),
        ]
        for (language, key, count, expected) in cases {
            let table = key == "%d files" ? "Localizable" : "Hours"
            let reply = try daemon.request([
                "op": "lookup", "key": key, "lang": language, "count": count, "table": table,
            ])
            #expect(reply["value"] as? String == expected, "\(language) \(key) \(count): \(reply)")
        }
        // `l10nctl get` prints the number the form was chosen by.
        for (count, expected) in [("1.5", "1 file"), ("2.5", "2 files"), ("-1.5", "-1 file")] {
            let result = try ProcessRunner.run(
                l10nctl, ["get", "%d files", "--lang", "en", "--count", count, "--socket", daemon.socketPath],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.stdout == expected + "\n", "\(count): \(result.stderr)")
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
