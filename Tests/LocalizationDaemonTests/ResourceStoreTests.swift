import Foundation
import LocalizationCore
import LocalizationDaemon
import TestSupport
import Testing

@Suite struct ResourceStoreTests {
    let root: TemporaryDirectory
    let store: ResourceStore

    init() throws {
        root = try TemporaryDirectory()
        try root.write(#""k" = "ja 1"; "same" = "s";"#, to: "ja.lproj/Localizable.strings")
        try root.write(#""k" = "en 1";"#, to: "en.lproj/Localizable.strings")
        // No grace for vanished or emptied files: each refresh reads the disk as it is.
        store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"), holdGrace: .zero)
        store.rescan()
    }

    func value(_ key: String, _ language: String, table: String? = nil) throws -> String {
        let segments = store.snapshot.segments
        return try segments.lookup(key, in: table, chain: segments.chain([try LanguageTag(language)])).value
    }

    @Test func firstLoadIsGenerationOne() throws {
        #expect(store.snapshot.generation == 1)
        #expect(store.snapshot.fileCount == 2)
        #expect(try value("k", "ja") == "ja 1")
    }

    @Test func anEditChangesOnlyItsTable() throws {
        let path = try root.write(#""k" = "ja 2"; "same" = "s";"#, to: "ja.lproj/Localizable.strings")
        let summary = store.refresh(paths: [path])
        #expect(summary.changes == [TableChange(language: "ja", table: "Localizable")])
        #expect(summary.generation == 2)
        #expect(try value("k", "ja") == "ja 2")
    }

    @Test func sameBytesAreNotParsedAgain() throws {
        let path = try root.write(#""k" = "ja 1"; "same" = "s";"#, to: "ja.lproj/Localizable.strings")
        let summary = store.refresh(paths: [path, root.path])
        #expect(summary.filesParsed == 0)
        #expect(summary.changes.isEmpty)
        #expect(store.snapshot.generation == 1)
    }

    /// A file broken from its first save has no last good table: the refresh says so, and
    /// the log does not call it still served.
    @Test func aFileBrokenFromItsFirstSaveIsNamedUnserved() throws {
        let path = try root.write("\"k\" = ", to: "ja.lproj/New.strings")
        let broken = store.refresh(paths: [path])
        #expect(broken.newErrors.map(\.location.file) == [path])
        #expect(broken.unservedErrorFiles == [path])
    }

    @Test func aBrokenFileKeepsItsLastGoodTableUntilFixed() throws {
        let path = try root.write("\"k\" = \"ja 3\"\n\"same\" = ", to: "ja.lproj/Localizable.strings")
        let broken = store.refresh(paths: [path])
        #expect(broken.changes.isEmpty)
        #expect(broken.newErrors.count == 1)
        #expect(broken.unservedErrorFiles.isEmpty, "its last good table is served")
        #expect(try value("k", "ja") == "ja 1")
        #expect(store.snapshot.errors.first?.location.file == path)
        try root.write(#""k" = "ja 3";"#, to: "ja.lproj/Localizable.strings")
        let fixed = store.refresh(paths: [path])
        #expect(fixed.changes.count == 1)
        #expect(store.snapshot.errors.isEmpty)
        #expect(try value("k", "ja") == "ja 3")
    }

    @Test func newAndDeletedLanguageDirectories() throws {
        try root.write(#""k" = "ko";"#, to: "ko.lproj/Localizable.strings")
        let added = store.refresh(paths: [root.path + "/ko.lproj"])
        #expect(added.changes == [TableChange(language: "ko", table: "Localizable")])
        #expect(try value("k", "ko") == "ko")
        try FileManager.default.removeItem(atPath: root.path + "/ja.lproj")
        let removed = store.refresh(paths: [root.path + "/ja.lproj"])
        #expect(removed.changes == [TableChange(language: "ja", table: "Localizable")])
        #expect(try value("k", "ja") == "en 1")
        #expect(!store.snapshot.segments.languages.map(\.identifier).contains("ja"))
    }

    @Test func readersKeepTheSnapshotTheyTook() throws {
        let before = store.snapshot
        let path = try root.write(#""k" = "ja 4";"#, to: "ja.lproj/Localizable.strings")
        store.refresh(paths: [path])
        let chain = before.segments.chain([try LanguageTag("ja")])
        #expect(try before.segments.lookup("k", chain: chain).value == "ja 1")
        #expect(try value("k", "ja") == "ja 4")
    }

    @Test func pathsOutsideTheRootsAreIgnored() {
        let summary = store.refresh(paths: ["/etc/passwd", "/tmp"])
        #expect(summary.changes.isEmpty)
        #expect(store.snapshot.fileCount == 2)
    }

    /// A file over `maximumFileBytes` is not parsed: it is an error naming the limit, and
    /// its last good table is served until it shrinks again.
    @Test func aFileOverTheSizeLimitKeepsItsLastGoodTable() throws {
        let limited = ResourceStore(
            roots: [root.path], developmentLanguage: LanguageTag(language: "en"), maximumFileBytes: 4096)
        limited.rescan()
        let segments = { limited.snapshot.segments }
        func japanese(_ key: String) throws -> String {
            try segments().lookup(key, chain: segments().chain([try LanguageTag("ja")])).value
        }
        #expect(try japanese("k") == "ja 1")
        let padding = String(repeating: "/* padding */\n", count: 400)
        let contents = #""k" = "ja 2";"# + "\n" + padding
        let path = try root.write(contents, to: "ja.lproj/Localizable.strings")
        limited.refresh(paths: [path])
        #expect(
            limited.snapshot.errors.map(\.description) == [
                "\(path):1:1: cannot be read: it is \(contents.utf8.count) bytes, larger than the 4096 bytes limit for one resource file"
            ])
        #expect(try japanese("k") == "ja 1")
        try root.write(#""k" = "ja 3";"#, to: "ja.lproj/Localizable.strings")
        limited.refresh(paths: [path])
        #expect(limited.snapshot.errors.isEmpty)
        #expect(try japanese("k") == "ja 3")
    }

    /// A table that is there but cannot be read is an error that keeps its last good table,
    /// not a vanished file: a file replaced by a directory, a link looping onto itself.
    @Test func aTableThatCannotBeReadKeepsItsLastGoodTable() throws {
        let path = root.path + "/ja.lproj/Localizable.strings"
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        store.refresh(paths: [path])
        #expect(store.snapshot.errors.map(\.message) == ["cannot be read: it is a directory, not a file"])
        #expect(try value("k", "ja") == "ja 1")
        // A full rescan finds the directory named like a table and reports it the same way.
        store.rescan()
        #expect(store.snapshot.errors.map(\.location.file) == [path])
        #expect(try value("k", "ja") == "ja 1")

        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "Localizable.strings")
        store.refresh(paths: [path])
        #expect(store.snapshot.errors.map(\.message) == ["cannot be read: Too many levels of symbolic links"])
        #expect(try value("k", "ja") == "ja 1")

        try FileManager.default.removeItem(atPath: path)
        store.refresh(paths: [path])
        #expect(store.snapshot.errors.isEmpty)
        #expect(try value("k", "ja") == "en 1")
    }
}
