import Foundation
import LocalizationCore
import LocalizationDaemon
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The store never replaces good tables with nothing: an emptied file is held, a root that
/// resolves to nothing or holds no language keeps its tables, and a re-pointed root link is
/// read whole and swapped in one refresh.
@Suite struct ResourceStoreHoldTests {
    let directory: TemporaryDirectory
    /// `current`, a link to `releases/41` (en, ja, de); `releases/42` holds en, ja, ko.
    let root: String

    init() throws {
        directory = try TemporaryDirectory()
        for language in ["en", "ja", "de"] {
            try directory.write(
                "\"k\" = \"41 \(language)\";\n", to: "releases/41/\(language).lproj/Localizable.strings")
        }
        for language in ["en", "ja", "ko"] {
            try directory.write(
                "\"k\" = \"42 \(language)\";\n", to: "releases/42/\(language).lproj/Localizable.strings")
        }
        try directory.makeDirectory("releases/empty")
        root = directory.path + "/current"
        try point(to: "releases/41")
    }

    /// Re-points `current` the way `ln -sfn` does: a new link renamed over the old one.
    func point(to target: String) throws {
        try? FileManager.default.removeItem(atPath: root + ".new")
        try FileManager.default.createSymbolicLink(atPath: root + ".new", withDestinationPath: target)
        #expect(rename(root + ".new", root) == 0)
    }

    /// A store over `current`; with no grace by default, so each refresh reads the disk as it is.
    func makeStore(holdGrace: Duration = .zero) -> ResourceStore {
        let store = ResourceStore(roots: [root], developmentLanguage: LanguageTag(language: "en"), holdGrace: holdGrace)
        store.rescan()
        return store
    }

    func value(_ store: ResourceStore, _ language: String) throws -> String {
        let segments = store.snapshot.segments
        return try segments.lookup("k", in: nil, chain: segments.chain([try LanguageTag(language)])).value
    }

    func languages(_ store: ResourceStore) -> [String] {
        store.snapshot.segments.languages.map(\.identifier).sorted()
    }

    /// #2: a file truncated for a rewrite in place, read before the rewrite: its last table
    /// is served and the file is listed as held; left alone for the grace, empty is empty.
    @Test func anEmptiedFileIsHeldThenTakenForEmpty() throws {
        let store = makeStore(holdGrace: .milliseconds(300))
        let file = root + "/ja.lproj/Localizable.strings"
        try "".write(toFile: file, atomically: false, encoding: .utf8)
        let held = store.refresh(paths: [file])
        #expect(held.heldFiles == [file])
        #expect(held.changes.isEmpty)
        #expect(try value(store, "ja") == "41 ja")
        // The grace counts from the file's last change, which no event marks: wait it out.
        Thread.sleep(forTimeInterval: 0.35)
        let taken = store.refresh(paths: [file])
        #expect(taken.heldFiles.isEmpty)
        #expect(taken.changes == [TableChange(language: "ja", table: "Localizable")])
        #expect(try value(store, "ja") == "41 en", "an empty table: the key falls back")
    }

    /// A file truncated by a writer that still has it open is held whatever the grace: the
    /// kernel says someone writes it (a read lease is refused), however late the events are.
    @Test func anEmptiedFileStillOpenForWritingIsHeld() throws {
        let store = makeStore()
        let file = root + "/ja.lproj/Localizable.strings"
        let writer = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
        try #require(writer >= 0)
        #expect(store.refresh(paths: [file]).heldFiles == [file])
        #expect(try value(store, "ja") == "41 ja")
        close(writer)
        #expect(store.refresh(paths: [file]).heldFiles.isEmpty, "closed, and no grace: empty is empty")
        #expect(try value(store, "ja") == "41 en")
    }

    /// A file found gone (a directory renamed away, read between the watcher's check and the
    /// rename back) keeps its table for the grace; gone for the grace, it is dropped.
    @Test func aVanishedFileIsHeldForTheGrace() throws {
        let store = makeStore(holdGrace: .milliseconds(300))
        let ja = root + "/ja.lproj"
        #expect(rename(ja, root + "/.away") == 0)
        let held = store.refresh(paths: [ja])
        #expect(held.heldFiles == [ja + "/Localizable.strings"])
        #expect(try value(store, "ja") == "41 ja")
        #expect(rename(root + "/.away", ja) == 0)
        #expect(store.refresh(paths: [ja]).heldFiles.isEmpty)
        try FileManager.default.removeItem(atPath: ja)
        #expect(store.refresh(paths: [ja]).heldFiles == [ja + "/Localizable.strings"])
        Thread.sleep(forTimeInterval: 0.35)  // the grace, which no event ends: wait it out
        let dropped = store.refresh(paths: [ja])
        #expect(dropped.heldFiles.isEmpty)
        #expect(try value(store, "ja") == "41 en")
    }

    /// An empty file the store never saw with content is loaded as the empty table it is.
    @Test func aFileEmptyFromTheStartIsNotHeld() throws {
        let store = makeStore()
        let file = try directory.write("", to: "releases/41/ja.lproj/Menu.strings")
        let summary = store.refresh(paths: [root + "/ja.lproj/Menu.strings"])
        #expect(summary.heldFiles.isEmpty)
        #expect(store.snapshot.fileCount == 4, "\(file)")
    }

    /// #5: the root link re-pointed; a refresh of any path under it reads the new target
    /// whole and publishes it in one snapshot: every language of 42 at once, none of 41 left
    /// (a re-point is not a vanished file: the old release's files are not held).
    @Test(arguments: [false, true])
    func aRepointedRootIsSwappedInOneRefresh(byRescan: Bool) throws {
        let store = makeStore(holdGrace: .seconds(30))
        #expect(languages(store) == ["de", "en", "ja"])
        let generation = store.snapshot.generation
        try point(to: "releases/42")
        let summary =
            byRescan ? store.rescan() : store.refresh(paths: [root + "/ja.lproj/Localizable.strings"])
        #expect(summary.generation == generation + 1)
        #expect(languages(store) == ["en", "ja", "ko"])
        for language in ["en", "ja", "ko"] { #expect(try value(store, language) == "42 \(language)") }
        #expect(store.snapshot.errors.isEmpty)
    }

    /// A root that resolves to nothing (a dangling link), or to a directory holding no
    /// language, keeps its tables and says so in the snapshot's errors until it holds some again.
    @Test(arguments: ["releases/none", "releases/empty"])
    func aRootThatServesNothingKeepsItsTables(target: String) throws {
        let store = makeStore()
        try point(to: target)
        let summary = store.refresh(paths: [root])
        #expect(summary.changes.isEmpty)
        #expect(languages(store) == ["de", "en", "ja"])
        #expect(try value(store, "ja") == "41 ja")
        let error = try #require(store.snapshot.errors.first)
        #expect(error.location.file == root)
        #expect(error.message.hasSuffix("the tables last read from it are still served"), "\(error)")
        #expect(summary.newRootErrors == [error])
        // A rescan changes nothing; a release that holds languages is served, error cleared.
        store.rescan()
        #expect(languages(store) == ["de", "en", "ja"])
        try point(to: "releases/42")
        store.refresh(paths: [root + "/en.lproj"])
        #expect(languages(store) == ["en", "ja", "ko"])
        #expect(store.snapshot.errors.isEmpty)
    }

    /// A root that holds no language from the start is an error too, with nothing to keep.
    @Test func anEmptyRootIsAnErrorFromTheStart() throws {
        try point(to: "releases/empty")
        let store = makeStore()
        #expect(languages(store) == [])
        #expect(
            store.snapshot.errors.map(\.message) == [
                "the resource directory holds no language (no .lproj directory, no String Catalog)"
            ])
    }
}
