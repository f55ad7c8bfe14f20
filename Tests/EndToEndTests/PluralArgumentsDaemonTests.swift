import Foundation
import TestSupport
import Testing

@testable import Localization

/// Formats with several plural variables, each selected by its own argument (issue 5):
/// `"%d files in %d folders".fr.localized(3, 1)` is "3 fichiers dans 1 dossier" through a
/// real `l10nd` in both daemon modes, as it is from the files.
@Suite struct PluralArgumentsDaemonTests {
    /// A catalog whose key `%@ has %lld items` has a top-level German plural: its first
    /// argument is a string, so the form must be selected by the second (shared with
    /// `L10nctlOfflineTests`).
    static let stringFirstPluralCatalog = """
        { "sourceLanguage" : "en", "version" : "1.0", "strings" : {
          "%@ has %lld items" : { "localizations" : { "de" : { "variations" : { "plural" : {
            "one" : { "stringUnit" : { "state" : "translated", "value" : "Ein Element bei %1$@" } },
            "other" : { "stringUnit" : { "state" : "translated", "value" : "%2$lld Elemente bei %1$@" } }
          } } } } } } }
        """

    struct Case: Sendable, CustomStringConvertible {
        var language: String
        var table: String?
        var key: String
        var arguments: [Int]
        var expected: String

        var description: String { "\(language) \(key) \(arguments)" }
    }

    /// The example `.stringsdict` (`%#@files@ … %#@folders@`, Japanese reordered with
    /// `%2$#@folders@`) and the example String Catalog's substitutions (`argNum`), with
    /// arguments whose categories differ, so one count for both would be wrong.
    static let cases: [Case] =
        [
            ("en", [1, 5], "1 file in 5 folders"), ("en", [3, 1], "3 files in 1 folder"),
            ("fr", [3, 1], "3 fichiers dans 1 dossier"), ("fr", [1, 3], "1 fichier dans 3 dossiers"),
            ("ru", [21, 2], "21 файл в 2 папках"), ("ru", [5, 1], "5 файлов в 1 папке"),
            ("ar", [0, 2], "لا توجد ملفات في مجلدين"), ("ar", [2, 11], "ملفان في 11 مجلدًا"),
            ("ja", [3, 1], "1 個のフォルダ内の3 個のファイル"),
        ].map { Case(language: $0.0, key: "%d files in %d folders", arguments: $0.1, expected: $0.2) }
        + [
            ("en", [1, 2], "1 photo in 2 albums"), ("en", [5, 1], "5 photos in 1 album"),
            ("fr", [1, 21], "1 photo dans 21 albums"),
            ("ru", [21, 5], "21 фотография в 5 альбомах"), ("ru", [2, 1], "2 фотографии в 1 альбоме"),
            ("ar", [0, 2], "لا توجد صور في ألبومين"), ("ar", [5, 21], "5 صور في 21 ألبومًا"),
            ("ja", [5, 2], "2 個のアルバムの5 枚の写真"),
        ].map {
            Case(language: $0.0, table: "Plurals", key: "%lld photos in %lld albums", arguments: $0.1, expected: $0.2)
        }

    /// A localizer of its own in `mode`: over a daemon serving `resources`, started here,
    /// or reading them in the process (embedded).
    static func localizer(_ mode: LookupMode, resources: String) throws -> (Localizer, DaemonProcess?) {
        let localizer = Localizer(environment: [:], log: { _ in })
        guard mode != .embedded else {
            localizer.useResources(at: [resources])
            return (localizer, nil)
        }
        let daemon = try DaemonProcess(resources: [resources])
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 10)
        return (localizer, daemon)
    }

    /// A top-level catalog plural of a key whose first argument is a string selects by the
    /// first numeric argument, in every mode (the daemon selects by `counts` in its modes).
    @Test(arguments: [LookupMode.embedded, .mapped, .direct])
    func aTopLevelPluralSelectsByTheNumberNotTheName(mode: LookupMode) throws {
        let directory = try TemporaryDirectory()
        try directory.write("Localizable.xcstrings", PluralArgumentsDaemonTests.stringFirstPluralCatalog)
        let (localizer, daemon) = try Self.localizer(mode, resources: directory.path)
        let de = Locale(identifier: "de")
        #expect(localizer.localized("\("Ana") has \(1) items", locale: de) == "Ein Element bei Ana")
        #expect(localizer.localized("\("Ana") has \(4) items", locale: de) == "4 Elemente bei Ana")
        withExtendedLifetime(daemon) {}
    }

    /// Every case in one mode; embedded mode (the files, read in the process) is the
    /// reference the daemon modes must match.
    @Test(arguments: [LookupMode.embedded, .mapped, .direct])
    func eachVariableTakesItsOwnArgument(mode: LookupMode) throws {
        let (localizer, daemon) = try Self.localizer(mode, resources: PackagePaths.exampleResources)
        for testCase in Self.cases {
            let value = localizer.localized(
                testCase.key, languages: [testCase.language], table: testCase.table, arguments: testCase.arguments)
            #expect(value == testCase.expected, "\(mode): \(testCase)")
        }
        // Answered by the daemon, not by a fallback.
        #expect(localizer.source == (daemon == nil ? .files : .daemon))
    }

    /// A `Base` entry holds the development language's text, so its forms are chosen by the
    /// development language's rules whatever language was asked for, in every mode: 21 is
    /// `other` in English ("21 files"), where Russian's `one` would pick "21 file".
    @Test(arguments: [LookupMode.embedded, .mapped, .direct])
    func aBaseEntryTakesTheDevelopmentLanguagesRules(mode: LookupMode) throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-resources")
        defer { resources.remove() }
        _ = try resources.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>%d files</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
            <key>files</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d file</string><key>other</key><string>%d files</string>
            </dict></dict></dict></plist>
            """, to: "Base.lproj/Localizable.stringsdict")
        _ = try resources.write("\"hello\" = \"привет\";\n", to: "ru.lproj/Localizable.strings")
        let (localizer, daemon) = try Self.localizer(mode, resources: resources.path)
        for (count, expected) in [(21, "21 files"), (1, "1 file"), (2, "2 files")] {
            let byCount = localizer.localized("%d files", languages: ["ru"], table: nil, count: count, arguments: [])
            #expect(byCount == expected, "\(mode), count \(count)")
            let byArgument = localizer.localized("%d files", languages: ["ru"], table: nil, arguments: [count])
            #expect(byArgument == expected, "\(mode), argument \(count)")
        }
        #expect(localizer.source == (daemon == nil ? .files : .daemon))
    }

    /// The protocol itself (JSON lines): `counts` gives each argument position its count,
    /// `null` for an argument that is not a number (its variables take `other`); `count`
    /// still selects every variable by one number.
    @Test func lookupSelectsEachVariableByTheCountAtItsPosition() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let key = "%d files in %d folders"
        let cases: [(request: [String: Any], expected: String)] = [
            (["counts": [3, 1]], "%1$d fichiers dans %2$d dossier"),
            (["counts": [1, 3]], "%1$d fichier dans %2$d dossiers"),
            (["counts": [NSNull(), 1]], "%1$d fichiers dans %2$d dossier"),
            (["counts": ["1.50", 2]], "%1$d fichier dans %2$d dossiers"),
            (["counts": [2]], "%1$d fichiers dans %2$d dossiers"),
            (["count": 1], "%1$d fichier dans %2$d dossier"),
            // Without a count the entry's `other` forms, as written.
            ([:], "%d fichiers dans %d dossiers"),
        ]
        for (members, expected) in cases {
            var request: [String: Any] = ["op": "lookup", "key": key, "lang": "fr"]
            request.merge(members) { _, new in new }
            let reply = try daemon.request(request)
            #expect(reply["value"] as? String == expected, "\(members): \(reply)")
        }
        let catalog = try daemon.request([
            "op": "lookup", "key": "%lld photos in %lld albums", "lang": "ja", "table": "Plurals", "counts": [5, 2],
        ])
        #expect(catalog["value"] as? String == "%2$lld 個のアルバムの%1$lld 枚の写真")
        let hello = try daemon.request(["op": "hello"])
        #expect((hello["protocol"] as? [String: Any])?["minor"] as? Int ?? 0 >= 3)
    }

    /// `l10nctl get` with one `--count` per argument, through the daemon and from the files.
    @Test func l10nctlTakesOneCountPerArgument() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let l10nctl = PackagePaths.executable("l10nctl")
        let key = ["get", "%d files in %d folders", "--lang", "fr"]
        for source in [["--socket", daemon.socketPath], ["--resources", PackagePaths.exampleResources]] {
            let several = try ProcessRunner.run(
                l10nctl, key + ["--count", "3", "--count", "1"] + source, environment: ["PATH": "/usr/bin:/bin"])
            #expect(several.status == 0 && several.stdout == "3 fichiers dans 1 dossier\n", "\(source): \(several)")
            // One `--count` still selects every variable, and fills the argument it is.
            let one = try ProcessRunner.run(
                l10nctl, key + ["--count", "1"] + source, environment: ["PATH": "/usr/bin:/bin"])
            #expect(one.stdout == "1 fichier dans %2$d dossier\n", "\(source): \(one)")
        }
    }

    /// Malformed `counts` are refused with `bad_request`, and the connection goes on.
    @Test func malformedCountsAreBadRequests() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let client = try daemon.connect()
        let bad: [Any] = [
            "3", [true], [[1]], ["1,5"], Array(repeating: 1, count: 65), ["count": 1],
        ]
        for counts in bad {
            let reply = try client.request(["op": "lookup", "key": "k", "lang": "fr", "counts": counts])
            #expect(reply["ok"] as? Bool == false, "\(counts)")
            #expect((reply["error"] as? [String: Any])?["code"] as? String == "bad_request", "\(counts): \(reply)")
        }
        let both = try client.request(["op": "lookup", "key": "k", "lang": "fr", "count": 1, "counts": [1]])
        #expect((both["error"] as? [String: Any])?["code"] as? String == "bad_request", "\(both)")
        #expect(try client.request(["op": "hello"])["ok"] as? Bool == true)
    }
}
