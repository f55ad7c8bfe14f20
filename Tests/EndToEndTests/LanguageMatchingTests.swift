import Foundation
import Localization
import LocalizationCore
import TestSupport
import Testing

/// Region-named Chinese folders (and underscore and legacy names) are reached from the tags
/// Apple platforms and browsers send, the same way from files (`l10nctl get --resources`)
/// and through the real `l10nd`.
@Suite struct LanguageMatchingTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    /// An app's folders as public apps ship them: region names, one with an underscore.
    static func regionNamedApp() throws -> TemporaryDirectory {
        try app(
            key: "Settings",
            values: [
                ("en", "Settings"),
                ("zh-CN", "设置"),
                ("zh_TW", "設定"),
                ("zh-HK", "設定（香港）"),
                ("pt_BR", "Ajustes"),
                ("Japanese", "設定（日本）"),
                ("de", "Einstellungen"),
                ("Swedish", "Inställningar"),
            ])
    }

    /// A root with one `Localizable.strings` per folder, each giving `key` its value.
    static func app(key: String, values: [(folder: String, value: String)]) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for (folder, value) in values {
            try directory.write("\(folder).lproj/Localizable.strings", "\"\(key)\" = \"\(value)\";")
        }
        return directory
    }

    static let cases: [(lang: String, value: String)] = [
        ("zh-Hant-TW", "設定"), ("zh-Hant", "設定"), ("zh-TW", "設定"), ("zh_TW", "設定"),
        ("zh-Hans", "设置"), ("zh-Hans-CN", "设置"), ("zh-CN", "设置"), ("zh", "设置"),
        ("zh-Hant-HK", "設定（香港）"), ("zh-HK", "設定（香港）"),
        // CLDR parent locales (zh_Hant_MO → zh_Hant_HK), the script's own locale (zh-SG → zh-CN),
        // and Apple's last resort (pt-PT → pt-BR, only when no preference has anything else).
        ("zh-Hant-MO", "設定（香港）"), ("zh-MO", "設定（香港）"), ("zh-SG", "设置"), ("zh-Hans-SG", "设置"),
        ("pt-PT", "Ajustes"), ("pt-PT, de;q=0.5", "Einstellungen"),
        ("pt-BR", "Ajustes"), ("pt", "Ajustes"), ("ja-JP", "設定（日本）"), ("sv-SE", "Inställningar"),
        ("de-DE,de;q=0.9,en;q=0.8", "Einstellungen"), ("fr, zh-Hant;q=0.5", "設定"),
    ]

    @Test func filesModeThroughL10nctl() throws {
        let app = try Self.regionNamedApp()
        for (lang, value) in Self.cases {
            let result = try ProcessRunner.run(
                l10nctl, ["get", "Settings", "--lang", lang, "--resources", app.path],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.status == 0, "\(lang): \(result.stderr)")
            #expect(result.stdout == value + "\n", "\(lang)")
        }
    }

    @Test func daemonModeThroughL10nd() throws {
        let app = try Self.regionNamedApp()
        let daemon = try DaemonProcess(resources: [app.path])
        let client = try daemon.connect()
        for (lang, value) in Self.cases {
            let reply = try client.request(["op": "lookup", "key": "Settings", "lang": lang])
            #expect(reply["ok"] as? Bool == true, "\(lang): \(reply)")
            #expect(reply["value"] as? String == value, "\(lang)")
        }
        // A list of tags, one of them an Accept-Language header.
        let listed = try client.request(["op": "lookup", "key": "Settings", "lang": ["xx-bad;q=0.1,ko", "zh-Hant"]])
        #expect(listed["value"] as? String == "設定")
        // A header with nothing usable in it is an error, not a silent development language.
        let bad = try client.request(["op": "lookup", "key": "Settings", "lang": "../x;q=1,;q=0.5"])
        #expect(bad["ok"] as? Bool == false)
    }

    /// l10nctl through the daemon gives what the files give.
    @Test func l10nctlThroughTheDaemon() throws {
        let app = try Self.regionNamedApp()
        let daemon = try DaemonProcess(resources: [app.path])
        for (lang, value) in Self.cases {
            let result = try ProcessRunner.run(
                l10nctl, ["get", "Settings", "--lang", lang, "--socket", daemon.socketPath],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.stdout == value + "\n", "\(lang): \(result.stderr)")
        }
    }

    /// The client library in every mode answers as the files do: embedded reads them, mapped
    /// and direct go through the real `l10nd`.
    @Test(arguments: [LookupMode.embedded, .mapped, .direct])
    func clientLibraryInEveryMode(mode: LookupMode) throws {
        let app = try Self.regionNamedApp()
        let (localizer, daemon) = try PluralArgumentsDaemonTests.localizer(mode, resources: app.path)
        for (lang, value) in Self.cases {
            #expect(localizer.lookup("Settings", languages: [lang]).value == value, "\(mode): \(lang)")
        }
        #expect(localizer.source == (daemon == nil ? .files : .daemon))
    }

    /// Issue 25's matching cases, as Apple's ICU has them: its parent map (through `en-GB`,
    /// `yue` to `zh-Hant-HK`), its aliases (`iw`, `in`, `no`), `root` under a script that is
    /// not the language's likely one (`sr-Latn` never reads `sr`), and the folders the root
    /// really has (`nl` reads the only `nl-BE`, `es` the only `es-419`).
    static func appleMatchingApp() throws -> TemporaryDirectory {
        try app(
            key: "Save",
            values: [
                ("en", "Save"),
                ("en-GB", "Save (GB)"),
                ("nl-BE", "Opslaan"),
                ("es-419", "Guardar"),
                ("zh-HK", "儲存"),
                ("zh-Hans", "保存"),
                ("he", "שמור"),
                ("in", "Simpan"),
                ("nb", "Lagre"),
                ("sr", "Сачувај"),
            ])
    }

    static let appleMatchingCases: [(lang: String, value: String)] = [
        ("en-AU", "Save (GB)"), ("en-IN", "Save (GB)"), ("en-NZ", "Save (GB)"), ("en-AU, en-GB", "Save (GB)"),
        ("en-US", "Save"), ("yue", "儲存"), ("yue-Hant-HK", "儲存"), ("yue-Hans", "保存"),
        ("iw", "שמור"), ("iw-IL", "שמור"), ("id", "Simpan"), ("no", "Lagre"), ("nn", "Lagre"),
        ("nl", "Opslaan"), ("nl-NL", "Opslaan"), ("es", "Guardar"), ("es-ES", "Guardar"),
        ("sr-Latn-RS", "Save"), ("sr-RS", "Сачувај"), ("nl, sr", "Opslaan"),
    ]

    @Test func appleMatchingFromFilesAndTheDaemon() throws {
        let app = try Self.appleMatchingApp()
        for (lang, value) in Self.appleMatchingCases {
            let result = try ProcessRunner.run(
                l10nctl, ["get", "Save", "--lang", lang, "--resources", app.path],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.stdout == value + "\n", "files: \(lang): \(result.stderr)")
        }
        let daemon = try DaemonProcess(resources: [app.path])
        let client = try daemon.connect()
        for (lang, value) in Self.appleMatchingCases {
            let reply = try client.request(["op": "lookup", "key": "Save", "lang": lang])
            #expect(reply["value"] as? String == value, "daemon: \(lang): \(reply)")
        }
    }

    @Test(arguments: [LookupMode.embedded, .mapped, .direct])
    func appleMatchingInEveryMode(mode: LookupMode) throws {
        let app = try Self.appleMatchingApp()
        let (localizer, daemon) = try PluralArgumentsDaemonTests.localizer(mode, resources: app.path)
        for (lang, value) in Self.appleMatchingCases {
            #expect(localizer.lookup("Save", languages: [lang]).value == value, "\(mode): \(lang)")
        }
        // The daemon lives to here, and every answer came from it (or the files).
        #expect(localizer.source == (daemon == nil ? .files : .daemon))
    }
}
