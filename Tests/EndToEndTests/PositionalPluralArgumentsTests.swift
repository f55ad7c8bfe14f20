import Foundation
import TestSupport
import Testing

@testable import Localization

/// A Russian entry whose format puts its arguments in another order than they are given,
/// one of them a plural variable (`%2$@ has %1$#@c@`: the count is argument 1, the name
/// argument 2), filled with arguments through the daemon's `args` and the library in every
/// mode (issue 25: the formatted answer came back as the key). The shape that did:
/// `%2$@ has %#@c@`, a variable without a position beside a numbered argument, which
/// CoreFoundation gives argument 1 (it counts unnumbered conversions apart) and l10nd gave
/// argument 3, so the format fitted no arguments and the key came back.
@Suite struct PositionalPluralArgumentsTests {
    static let keys = ["%2$@ has %1$#@c@", "%2$@ has %#@c@"]

    static func resources() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        func entry(_ key: String, _ forms: [(String, String)]) -> String {
            """
            <key>\(key)</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>\(key)</string>
            <key>c</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            \(forms.map { "<key>\($0.0)</key><string>\($0.1)</string>" }.joined())
            </dict></dict>
            """
        }
        func plist(_ forms: [(String, String)]) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
                + keys.map { entry($0, forms) }.joined() + "</dict></plist>\n"
        }
        try root.write(
            plist([("one", "%d файл"), ("few", "%d файла"), ("many", "%d файлов"), ("other", "%d файла")]),
            to: "ru.lproj/Localizable.stringsdict")
        try root.write(plist([("one", "%d file"), ("other", "%d files")]), to: "en.lproj/Localizable.stringsdict")
        return root
    }

    static let expected: [(count: Int, text: String)] = [
        (1, "Ана has 1 файл"), (3, "Ана has 3 файла"), (5, "Ана has 5 файлов"), (21, "Ана has 21 файл"),
    ]

    @Test func theDaemonFillsTheArguments() throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        for key in Self.keys {
            for (count, text) in Self.expected {
                let reply = try daemon.request(["op": "lookup", "key": key, "lang": "ru", "args": [count, "Ана"]])
                #expect(reply["formatted"] as? String == text, "\(key) \(count): \(reply)")
            }
        }
    }

    @Test(arguments: [LookupMode.mapped, .direct])
    func theLibraryFillsTheArgumentsThroughTheDaemon(mode: LookupMode) throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 10)
        for key in Self.keys {
            for (count, text) in Self.expected {
                // Twice: the second answer comes from what the first one mapped or remembered.
                for _ in 0..<2 {
                    let filled = localizer.localized(key, languages: ["ru"], table: nil, arguments: [count, "Ана"])
                    #expect(filled == text, "\(mode) \(key) \(count)")
                    let counted = localizer.localized(
                        key, languages: ["ru"], table: nil, count: count, arguments: [count, "Ана"])
                    #expect(counted == text, "\(mode) \(key) \(count)")
                }
            }
        }
    }

    @Test func theLibraryFillsTheArgumentsFromTheFiles() throws {
        let root = try Self.resources()
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useResources(at: [root.path])
        for key in Self.keys {
            for (count, text) in Self.expected {
                #expect(localizer.localized(key, languages: ["ru"], table: nil, arguments: [count, "Ана"]) == text)
            }
        }
    }
}
