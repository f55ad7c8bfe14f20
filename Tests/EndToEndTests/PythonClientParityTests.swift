import Foundation
import TestSupport
import Testing

@testable import Localization

/// The Python client (clients/python, the l10nd_client package) gets from a real `l10nd` the finished
/// strings the Swift library makes from the files: the same keys, languages and arguments,
/// through `lookup`'s `args` (protocol 1.4) on one side and `localized(…)` on the other.
@Suite struct PythonClientParityTests {
    /// One finished string to compare: `arguments` are strings, integers and doubles, as
    /// JSON carries them.
    struct Case: Sendable {
        var key: String
        var language: String
        var table: String?
        var arguments: [any CVarArg & Sendable]
    }

    static let cases: [Case] = [
        Case(key: "%1$@ has %2$d new messages", language: "ja", arguments: ["Ana", 3]),
        Case(key: "%1$@ has %2$d new messages", language: "de", arguments: ["Ana", 1]),
        Case(key: "Welcome, %@", language: "fr", arguments: ["Zoë"]),
        Case(key: "%d files in %d folders", language: "ru", arguments: [21, 2]),
        Case(key: "%d files in %d folders", language: "ar", arguments: [0, 2]),
        Case(key: "%d files in %d folders", language: "ja", arguments: [3, 1]),
        Case(key: "%lld photos", language: "ru", table: "Plurals", arguments: [21]),
        Case(key: "%lld photos in %lld albums", language: "fr", table: "Plurals", arguments: [1, 21]),
        Case(key: "%lld files in %lld folders", language: "ja", table: "Menu", arguments: [4, 1]),
        Case(key: "保存", language: "ja", arguments: []),
        Case(key: "nowhere %d", language: "ja", arguments: [7]),
        // Floating-point conversions in the language's locale (a decimal comma in French).
        Case(key: "%.2f km", language: "fr", table: "Extra", arguments: [3.5]),
        Case(key: "%.2f km", language: "en", table: "Extra", arguments: [3.5]),
        // The French translation takes `%d` where the original has `%@`: both sides fall
        // back to the development language's string.
        Case(key: "%@ items left", language: "fr", table: "Extra", arguments: ["five"]),
        Case(key: "%@ items left", language: "fr", table: "Extra", arguments: [5]),
    ]

    @Test func pythonClientMatchesTheSwiftLibrary() throws {
        let python = try #require(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "python3 is needed (scripts/install-dependencies installs it)")
        let directory = try TemporaryDirectory(prefix: "python-parity")
        let resources = directory.path + "/Resources"
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources)
        try #"""
        "%.2f km" = "%.2f km";
        "%@ items left" = "%@ items left";
        """#.write(toFile: resources + "/en.lproj/Extra.strings", atomically: true, encoding: .utf8)
        try #"""
        "%.2f km" = "%.2f km";
        "%@ items left" = "%d articles restants";
        """#.write(toFile: resources + "/fr.lproj/Extra.strings", atomically: true, encoding: .utf8)

        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useResources(at: [resources])
        let expected = Self.cases.map { testCase in
            localizer.localized(
                testCase.key, languages: [testCase.language], table: testCase.table,
                arguments: testCase.arguments.map { $0 as any CVarArg })
        }

        let daemon = try DaemonProcess(resources: [resources])
        let input = try JSONSerialization.data(
            withJSONObject: Self.cases.map { testCase -> [String: Any] in
                [
                    "key": testCase.key, "lang": testCase.language, "table": testCase.table ?? NSNull(),
                    "args": testCase.arguments.map { $0 as Any },
                ]
            })
        let script = """
            import json, sys
            sys.path.insert(0, sys.argv[1])
            from l10nd_client import Client
            with Client(sys.argv[2]) as l10n:
                cases = json.load(sys.stdin)
                finished = [l10n.localized(c["key"], *c["args"], lang=c["lang"], table=c["table"]) for c in cases]
            print(json.dumps(finished, ensure_ascii=False))
            """
        let output = try ProcessRunner.run(
            python, ["-c", script, PackagePaths.root + "/clients/python", daemon.socketPath],
            stdin: String(decoding: input, as: UTF8.self), timeout: 60)
        #expect(output.status == 0, "\(output.stderr)")
        let finished = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String], "\(output.stdout)")
        #expect(finished.count == Self.cases.count)
        for (index, testCase) in Self.cases.enumerated() where index < finished.count {
            #expect(finished[index] == expected[index], "\(testCase.language) \(testCase.key) \(testCase.arguments)")
        }
        // Spot checks that the comparison compares real formatting, not two copies of a key.
        #expect(expected[0] == "Anaさんに新しいメッセージが3件あります")
        #expect(expected[3] == "21 файл в 2 папках")
        #expect(expected[11] == "3,50 km")
        #expect(expected[13] == "five items left")
    }
}
