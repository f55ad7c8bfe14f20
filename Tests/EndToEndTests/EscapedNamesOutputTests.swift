import Foundation
import TestSupport
import Testing

/// `l10nctl`'s text output shows names and keys taken from files and requests escaped, as
/// the daemon's log does (`DisplayText`): `watch` printed a table name's ESC raw, and
/// `missing` a key's ESC, tab and newline, which recolour the terminal, shift the columns
/// and forge a row. The JSON, strings and po formats escape by their own syntax.
@Suite struct EscapedNamesOutputTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    @Test func watchEscapesATableNamesControlCharacters() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"v\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let watch = try WatchProcess(daemon: daemon)
        try resources.write("\"k\" = \"v\";\n", to: "ja.lproj/Red\u{1B}[31mAlert.strings")
        let text = watch.output()
        #expect(text == "generation 2: ja/Red\\e[31mAlert\n", "\(text.debugDescription)")
    }

    @Test func missingTextEscapesAKeysControlCharacters() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        _ = try daemon.request(["op": "lookup", "key": "a\u{1B}[2Jb\tc\nd", "lang": "ja"])
        let report = try ProcessRunner.run(
            l10nctl, ["missing"], environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": daemon.socketPath])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout == "ja\tLocalizable\ta\\e[2Jb\\tc\\nd\t1\t-\n", "\(report.stdout.debugDescription)")
    }
}
