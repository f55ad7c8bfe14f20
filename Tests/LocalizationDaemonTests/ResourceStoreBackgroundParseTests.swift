import Dispatch
import LocalizationCore
import LocalizationDaemon
import TestSupport
import Testing

/// Large files parsed apart from the refreshes: the table served meanwhile stays the last
/// one read, a finished parse never lands over a table read after its bytes, and a broken
/// save keeps the last good table.
@Suite struct ResourceStoreBackgroundParseTests {
    /// A `.strings` table of 100 keys (over the 1,000 bytes these tests parse apart) whose
    /// `k` says `value`.
    static func table(_ value: String) -> String {
        (0..<100).map { "\"filler\($0)\" = \"filler text \($0)\";\n" }.joined() + "\"k\" = \"\(value)\";\n"
    }

    /// A store over `ja.lproj/Localizable.strings` (`v0`) that parses files of 1,000 bytes
    /// or more apart, signalling `parsed` as each parse ends.
    struct Fixture {
        let root: TemporaryDirectory
        let path: String
        let store: ResourceStore
        let parsed = DispatchSemaphore(value: 0)

        init() throws {
            root = try TemporaryDirectory()
            path = try root.write(ResourceStoreBackgroundParseTests.table("v0"), to: "ja.lproj/Localizable.strings")
            store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
            store.rescan()
            store.parseInBackground(filesOf: 1000) { [parsed] _ in parsed.signal() }
        }

        func save(_ text: String) throws { try root.write(text, to: "ja.lproj/Localizable.strings") }

        var served: String? {
            let segments = store.snapshot.segments
            return try? segments.lookup("k", chain: segments.chain([LanguageTag("ja")])).value
        }

        /// Waits for the next parse to end, and applies it as the daemon does.
        func applyNextParse() {
            #expect(parsed.wait(timeout: .now() + 30) == .success, "no parse ended")
            store.refreshParsed(path)
        }
    }

    /// v1 (large) is parsed apart; v2 (small) is read and served meanwhile; v3 (large) is
    /// saved before v1's parse is applied: v1, older than the v2 served, never lands.
    @Test func aFinishedParseNeverLandsOverATableReadAfterIt() throws {
        let f = try Fixture()
        try f.save(Self.table("v1"))
        f.store.refresh(paths: [f.path])
        #expect(f.served == "v0", "the last table is served while the new bytes parse")
        try f.save(#""k" = "v2";"#)
        f.store.refresh(paths: [f.path])
        #expect(f.served == "v2")
        try f.save(Self.table("v3"))
        f.applyNextParse()  // v1's parse: read before v2
        #expect(f.served == "v2", "an older parse landed over a newer table")
        f.applyNextParse()  // v3's
        #expect(f.served == "v3")
        #expect(f.store.snapshot.errors.isEmpty)
    }

    /// A large save that does not parse keeps the last good table, with its error listed.
    @Test func aBrokenLargeSaveKeepsTheLastGoodTable() throws {
        let f = try Fixture()
        try f.save(Self.table("v1") + "\"broken\" = \n")
        f.store.refresh(paths: [f.path])
        f.applyNextParse()
        #expect(f.served == "v0")
        #expect(f.store.snapshot.errors.map(\.location.file) == [f.path])
        try f.save(Self.table("v2"))
        f.store.refresh(paths: [f.path])
        f.applyNextParse()
        #expect(f.served == "v2")
        #expect(f.store.snapshot.errors.isEmpty)
    }
}
