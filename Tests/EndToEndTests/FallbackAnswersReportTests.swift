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

    /// A language the daemon compiled (`de`) answers a key it lacks from its fallback in
    /// place, in mapped mode: those answers were listed nowhere (issue 25). Every such key is
    /// listed, however the reader got it: `localized` (the thread's cached table, whatever
    /// key it read first) or a lookup.
    @Test(arguments: [LookupMode.mapped, .direct])
    func aFallbackAnswerOfACompiledLanguageIsListed(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write(
            "\"title\" = \"Title\";\n\"only.base\" = \"Base text\";\n\"base.too\" = \"Also base\";\n"
                + "\"looked.up\" = \"Looked up\";\n",
            to: "Base.lproj/Localizable.strings")
        try resources.write("\"title\" = \"Titel\";\n", to: "de.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 10)
        // Until the table is mapped, the daemon answers (and lists); read until it is.
        #expect(
            ClientDaemonTests.wait(seconds: 5) {
                _ = localizer.value("title", languages: .one("de"), table: nil)
                return mode == .direct || localizer.daemon?.mapped.current != nil
            }, "never mapped")
        _ = try daemon.request(["op": "reset"])
        for _ in 0..<20 {
            #expect(localizer.value("title", languages: .one("de"), table: nil) == "Titel")
            #expect(localizer.value("only.base", languages: .one("de"), table: nil) == "Base text")
            #expect(localizer.value("base.too", languages: .one("de"), table: nil) == "Also base")
            #expect(localizer.lookup("looked.up", languages: ["de"]).value == "Looked up")
        }
        // Mapped mode sends what it noted with the next note after its interval (0.2 s), or
        // at exit: one more fallback lookup, later, sends them all.
        Thread.sleep(forTimeInterval: 0.3)
        _ = localizer.lookup("looked.up", languages: ["de"])
        var listed: [String] = []
        #expect(
            ClientDaemonTests.wait(seconds: 5) {
                let entries = (try? daemon.request(["op": "missing"]))?["missing"] as? [[String: Any]] ?? []
                listed = entries.map { "\($0["lang"] ?? "")/\($0["key"] ?? "")/\($0["from"] ?? "")" }.sorted()
                return listed.count >= 3
            }, "\(mode): \(listed)")
        #expect(listed == ["de/base.too/Base", "de/looked.up/Base", "de/only.base/Base"], "\(mode)")
    }
}
