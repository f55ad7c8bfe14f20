import Foundation
import LocalizationDaemon
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ResourceWatcher` on real inotify, replaying what editors, sync tools and Kubernetes do.
@Suite struct ResourceWatcherInotifyTests {
    struct Fixture {
        let directory: TemporaryDirectory
        let collector = BatchCollector()
        let watcher: ResourceWatcher
        var root: String { directory.path }

        init(
            prepare: (TemporaryDirectory) throws -> Void = { dir in
                try dir.makeDirectory("ja.lproj")
                try dir.write("ja.lproj/Localizable.strings")
            }
        ) throws {
            directory = try TemporaryDirectory()
            try prepare(directory)
            let collector = collector
            watcher = ResourceWatcher(roots: [directory.path], source: InotifyEventSource()) { collector.record($0) }
            try watcher.start()
        }

        func finish() {
            watcher.stop()
            directory.remove()
        }

        /// Waits until `path` has been reported; files named in `never` must not have been.
        func expectReported(_ path: String, never: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
            let seen = collector.wait { _ in collector.files.contains(path) }
            #expect(seen, "\(path) not reported; got \(collector.all)", sourceLocation: sourceLocation)
            for name in never {
                #expect(
                    !collector.files.contains { $0.hasSuffix("/" + name) }, "\(name) reported",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func vimSave() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let file = fixture.root + "/ja.lproj/Localizable.strings"
        try fixture.directory.write("ja.lproj/4913", "")
        try FileManager.default.removeItem(atPath: fixture.root + "/ja.lproj/4913")
        try FileManager.default.moveItem(atPath: file, toPath: file + "~")
        try fixture.directory.write("ja.lproj/Localizable.strings", "\"k\" = \"vim\";\n")
        try FileManager.default.removeItem(atPath: file + "~")
        fixture.expectReported(file, never: ["4913", "Localizable.strings~"])
    }

    @Test func jetBrainsSafeWrite() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let file = fixture.root + "/ja.lproj/Localizable.strings"
        try fixture.directory.write("ja.lproj/Localizable.strings___jb_tmp___", "\"k\" = \"idea\";\n")
        try FileManager.default.moveItem(atPath: file, toPath: file + "___jb_old___")
        try FileManager.default.moveItem(atPath: file + "___jb_tmp___", toPath: file)
        try FileManager.default.removeItem(atPath: file + "___jb_old___")
        fixture.expectReported(file, never: ["Localizable.strings___jb_tmp___", "Localizable.strings___jb_old___"])
    }

    @Test func vsCodeTruncateThenWrite() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let file = fixture.root + "/ja.lproj/Localizable.strings"
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("\"k\" = \"code\";\n".utf8))
        try handle.close()
        fixture.expectReported(file)
    }

    @Test func moveIntoPlace() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        let staged = try outside.write("Localizable.strings", "\"k\" = \"mv\";\n")
        let file = fixture.root + "/ja.lproj/Localizable.strings"
        try FileManager.default.removeItem(atPath: file)
        #expect(rename(staged, file) == 0)
        fixture.expectReported(file)
    }

    @Test func newLprojWithAFile() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try fixture.directory.makeDirectory("ko.lproj")
        try fixture.directory.write("ko.lproj/Localizable.strings")
        try fixture.directory.write("Catalog.xcstrings", "{}")
        fixture.expectReported(fixture.root + "/ko.lproj/Localizable.strings")
        fixture.expectReported(fixture.root + "/Catalog.xcstrings")
        #expect(fixture.watcher.watchedDirectories.contains(fixture.root + "/ko.lproj"))
        // The new directory's own watch works: a later edit inside it is seen.
        try fixture.directory.write("ko.lproj/InfoPlist.strings")
        fixture.expectReported(fixture.root + "/ko.lproj/InfoPlist.strings")
    }

    @Test func kubernetesDataLinkSwap() throws {
        func publish(_ stamp: String, in dir: TemporaryDirectory, text: String) throws {
            try dir.makeDirectory("\(stamp)/ja.lproj")
            try dir.write("\(stamp)/ja.lproj/Localizable.strings", text)
        }
        let fixture = try Fixture { dir in
            try publish("..2026_01_01", in: dir, text: "\"k\" = \"one\";\n")
            try FileManager.default.createSymbolicLink(
                atPath: dir.path + "/..data", withDestinationPath: "..2026_01_01")
            try FileManager.default.createSymbolicLink(
                atPath: dir.path + "/ja.lproj", withDestinationPath: "..data/ja.lproj")
        }
        defer { fixture.finish() }
        let file = fixture.root + "/ja.lproj/Localizable.strings"
        #expect(fixture.watcher.watchedDirectories.contains(fixture.root + "/ja.lproj"))

        for (old, new) in [("..2026_01_01", "..2026_02_02"), ("..2026_02_02", "..2026_03_03")] {
            let before = fixture.collector.all.count
            try publish(new, in: fixture.directory, text: "\"k\" = \"\(new)\";\n")
            try FileManager.default.createSymbolicLink(atPath: fixture.root + "/..data_tmp", withDestinationPath: new)
            #expect(rename(fixture.root + "/..data_tmp", fixture.root + "/..data") == 0)
            try FileManager.default.removeItem(atPath: fixture.root + "/" + old)
            let seen = fixture.collector.wait { batches in
                batches.dropFirst(before).contains { $0.files.contains(file) }
            }
            #expect(seen, "swap to \(new) not reported: \(fixture.collector.all)")
        }
        #expect(!fixture.collector.files.contains { $0.contains("/..") }, "only paths through the visible link")
    }

    @Test func fiveHundredLprojDirectoriesInATightLoop() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let count = 500
        var expected: Set<String> = []
        for index in 0..<count {
            // Folders named for a language (`en-000`…`en-499`: numeric regions): one that
            // names none is listed in status, not watched.
            let name = String(format: "en-%03d.lproj", index)
            try fixture.directory.makeDirectory(name)
            expected.insert(try fixture.directory.write(name + "/Localizable.strings"))
        }
        let all = fixture.collector.wait(timeout: .seconds(30)) { _ in fixture.collector.files.isSuperset(of: expected)
        }
        #expect(all, "missing \(expected.subtracting(fixture.collector.files).count) of \(count)")
        #expect(fixture.watcher.statistics.watchCount == count + 2)
    }

    /// A deleted root is listed as missing and, once back, watched and scanned again: its
    /// own watch died with it, and nothing else would tell of its return.
    @Test func aDeletedRootIsWatchedAgainWhenItComesBack() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.removeItem(atPath: fixture.root)
        let missing = fixture.collector.wait { _ in fixture.watcher.statistics.missingRoots == [fixture.root] }
        #expect(missing, "\(fixture.watcher.statistics)")
        let file = try fixture.directory.write("ko.lproj/Localizable.strings")
        fixture.expectReported(file)
        #expect(fixture.watcher.statistics.missingRoots.isEmpty)
        #expect(fixture.watcher.watchedDirectories == [fixture.root, fixture.root + "/ko.lproj"])
        // Watched again: a later edit is reported like any other.
        let later = try fixture.directory.write("ko.lproj/Menu.strings")
        fixture.expectReported(later)
    }

    /// Busy neighbours (chaos 3): files written beside a root, in the parent watched for the
    /// root's own name, and in a subdirectory that holds no table, reach the watcher as no
    /// events at all; they cost a core's 8–9 % at 1,000 a second when each was handled.
    @Test func writesBesideARootAndAmongOtherFilesRaiseNoEvents() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let table = try directory.write("root/ja.lproj/Localizable.strings")
        try directory.makeDirectory("root/logs")
        let collector = BatchCollector()
        let watcher = ResourceWatcher(roots: [directory.path + "/root"], source: InotifyEventSource()) {
            collector.record($0)
        }
        try watcher.start()
        defer { watcher.stop() }
        // An edit of the table, alone, then after the neighbours' writes: events arrive in
        // order, so once its second report is in, every neighbour's event has been counted.
        func editTable(_ value: String) -> Int {
            let before = collector.all.count
            _ = try? directory.write("root/ja.lproj/Localizable.strings", "\"k\" = \"\(value)\";\n")
            let seen = collector.wait { batches in batches.dropFirst(before).contains { $0.files.contains(table) } }
            #expect(seen, "the edit of \(table) was not reported")
            return watcher.statistics.events
        }
        let alone = editTable("one")
        for index in 0..<50 {
            try directory.write("neighbour-\(index).log", "x")
            try directory.write("root/logs/\(index).log", "x")
            try directory.write("root/notes-\(index).txt", "x")
        }
        let total = editTable("two")
        #expect(total <= 2 * alone + 2, "\(total - 2 * alone) events for 150 files no table is in")
        #expect(collector.all.allSatisfy { $0.directories.isEmpty && $0.files == [table] }, "\(collector.all)")
    }

    /// The names a watch for the tree lets through: a link in a folder of other files may
    /// lead to tables, so its coming and going is heard though the folder's writes are not.
    @Test func aLinkToADirectoryAmongOtherFilesIsFollowedAndItsRemovalHeard() throws {
        let fixture = try Fixture { dir in
            try dir.makeDirectory("ja.lproj")
            try dir.write("shared/Sub/ko.lproj/Localizable.strings")
        }
        defer { fixture.finish() }
        let link = fixture.root + "/shared/Linked"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Sub")
        fixture.expectReported(link + "/ko.lproj/Localizable.strings")
        let before = fixture.collector.all.count
        try FileManager.default.removeItem(atPath: link)
        let heard = fixture.collector.wait { batches in
            batches.dropFirst(before).contains { $0.directories.contains(link) }
        }
        #expect(heard, "the link's removal was not reported: \(fixture.collector.all)")
    }

    @Test(arguments: [
        (WatchInterest.names(["Resources"]), "Resources", false, true),
        (.names(["Resources"]), "app.log", false, false),
        (.names(["Resources"]), "Resources.old", true, false),
        (.tree, "app.log", false, false),
        (.tree, "logs", true, true),
        (.tree, "ja.lproj", false, true),
        (.tree, "Menu.xcstrings", false, true),
        (.tree, "..data", false, true),
        (.tree, "", false, true),
        (.everything, "app.log", false, true),
    ])
    func aWatchLetsThroughOnlyWhatItIsFor(interest: WatchInterest, name: String, isDirectory: Bool, passes: Bool) {
        #expect(interest.accepts(name: name, isDirectory: isDirectory) == passes)
    }

    /// A link back up the tree is neither watched nor scanned twice, and is reported.
    @Test func aLinkLoopIsNotFollowed() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/loop", withDestinationPath: ".")
        let file = try fixture.directory.write("ko.lproj/Localizable.strings")
        fixture.expectReported(file, never: ["loop/ko.lproj/Localizable.strings"])
        #expect(!fixture.collector.files.contains { $0.contains("/loop/") }, "\(fixture.collector.all)")
        #expect(
            fixture.watcher.statistics.lastError
                == "\(fixture.root)/loop links back to \(fixture.root), a loop: not followed")
        #expect(!fixture.watcher.watchedDirectories.contains { $0.contains("/loop") })
    }
}
