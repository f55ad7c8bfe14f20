import Foundation
import TestSupport
import Testing

@testable import Localization

/// The missing-key report lists a key a reader got from a fallback (what they saw
/// untranslated) in every mode, not only when the daemon answered the lookup itself: a
/// `ko-KR` reader served from `Base` in the default (mapped) mode was listed nowhere (issue 25).
@Suite struct FallbackAnswersReportTests {
    @Test(arguments: [LookupMode.mapped, .direct])
    func aFallbackAnswerIsListed(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write(
            "\"title\" = \"Title\";\n\"only.base\" = \"Base text\";\n", to: "Base.lproj/Localizable.strings")
        try resources.write("\"title\" = \"Titel\";\n", to: "de.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 10)
        for _ in 0..<20 {
            #expect(localizer.value("title", languages: .one("ko-KR"), table: nil) == "Title")
            #expect(localizer.lookup("title", languages: ["ko-KR"]).value == "Title")
            // A German reader read German: nothing to list for them.
            #expect(localizer.value("title", languages: .one("de"), table: nil) == "Titel")
        }
        var entries: [[String: Any]] = []
        #expect(
            ClientDaemonTests.wait(seconds: 5) {
                entries = (try? daemon.request(["op": "missing"]))?["missing"] as? [[String: Any]] ?? []
                return !entries.isEmpty
            }, "\(mode): nothing listed")
        let listed = entries.map { "\($0["lang"] ?? "")/\($0["key"] ?? "")/\($0["from"] ?? "")" }
        #expect(listed == ["ko-KR/title/Base"], "\(mode)")
    }
}
