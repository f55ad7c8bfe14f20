import Foundation
import LocalizationDaemon
import TestSupport
import Testing

/// `ResourceWatcher` against a fake event source: debouncing, ignore rules and bookkeeping.
@Suite struct ResourceWatcherTests {
    /// A root with `ja.lproj/Localizable.strings`, a watcher over it on a fake source, and a collector.
    struct Fixture {
        let directory: TemporaryDirectory
        let source = FakeFileSystemEventSource()
        let collector = BatchCollector()
        let watcher: ResourceWatcher
        let ja: String

        /// `failing`: directories (relative to the root) whose watch fails with that code;
        /// `prepare` adds files before the watcher starts.
        init(
            settle: Duration = .milliseconds(20), failing: [String: FileSystemWatchError.Code] = [:],
            prepare: (TemporaryDirectory) throws -> Void = { _ in }
        ) throws {
            directory = try TemporaryDirectory()
            ja = try directory.makeDirectory("ja.lproj")
            try directory.write("ja.lproj/Localizable.strings")
            try directory.makeDirectory("en.lproj")
            try directory.write("en.lproj/Localizable.strings")
            try prepare(directory)
            for (relative, code) in failing { source.fail(directory.path + "/" + relative, with: code) }
            let collector = collector
            watcher = ResourceWatcher(roots: [directory.path], source: source, options: .init(settle: settle)) {
                collector.record($0)
            }
            try watcher.start()
        }

        /// Stops the watcher and removes the directory: called in a `defer`, so a failing
        /// expectation leaves no watcher running.
        func finish() {
            watcher.stop()
            directory.remove()
        }

        func event(_ mask: FileSystemEvent.Mask, _ name: String, in path: String? = nil) throws -> FileSystemEvent {
            let watch = try #require(source.watch(for: path ?? ja))
            return FileSystemEvent(watch: watch, mask: mask, name: name)
        }
    }

    @Test func startWatchesRootsAndLprojDirectories() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let root = fixture.directory.path
        #expect(fixture.watcher.watchedDirectories == [root, root + "/en.lproj", root + "/ja.lproj"])
        #expect(fixture.watcher.statistics.watchCount == 3)
        // A window in which no batch may come (the settle is 20 ms): only time marks its end.
        Thread.sleep(forTimeInterval: 0.1)
        #expect(fixture.collector.all.isEmpty, "no batch for what is already there")
    }

    @Test func burstOfEventsSettlesIntoOneBatch() throws {
        let fixture = try Fixture(settle: .milliseconds(50))
        defer { fixture.finish() }
        for _ in 0..<10 {
            fixture.source.emit([try fixture.event(.closedAfterWrite, "Localizable.strings")])
            Thread.sleep(forTimeInterval: 0.005)  // a burst paced inside the 50 ms settle
        }
        #expect(fixture.collector.wait { $0.count >= 1 })
        Thread.sleep(forTimeInterval: 0.2)  // a window in which no second batch may come
        let batches = fixture.collector.all
        #expect(batches.count == 1)
        #expect(batches.first?.files == [fixture.ja + "/Localizable.strings"])
        #expect(batches.first?.fullRescan == false)
        #expect(fixture.watcher.statistics.events == 10)
        #expect(fixture.watcher.statistics.batches == 1)
    }

    @Test(arguments: [
        "4913", "Localizable.strings~", ".Localizable.strings.swp", "Localizable.strings___jb_tmp___",
        "Localizable.strings___jb_old___", ".#Localizable.strings", "#Localizable.strings#",
        "Localizable.strings.tmp", ".Localizable.strings.AbC123", "notes.txt",
    ])
    func temporaryAndUnrelatedNamesAreIgnored(name: String) throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.source.emit([
            try fixture.event(.created, name), try fixture.event(.closedAfterWrite, name),
            try fixture.event(.movedFrom, name), try fixture.event(.deleted, name),
        ])
        Thread.sleep(forTimeInterval: 0.15)  // a window in which no batch may come (settle: 20 ms)
        #expect(fixture.collector.all.isEmpty)
    }

    @Test(arguments: [
        FileSystemEvent.Mask.movedTo, .closedAfterWrite, .deleted, .movedFrom, .attributesChanged,
    ])
    func everyKindOfChangeToAResourceCounts(mask: FileSystemEvent.Mask) throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.source.emit([try fixture.event(mask, "Localizable.stringsdict")])
        #expect(fixture.collector.wait { !$0.isEmpty })
        #expect(fixture.collector.files == [fixture.ja + "/Localizable.stringsdict"])
    }

    /// A new regular file is still being written: it is reported when closed, not created.
    @Test func aCreatedFileIsReportedOnlyOnceClosed() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let file = try fixture.directory.write("ja.lproj/Menu.strings")
        fixture.source.emit([try fixture.event(.created, "Menu.strings")])
        fixture.source.emit([try fixture.event(.modified, "Menu.strings")])
        Thread.sleep(forTimeInterval: 0.15)  // a window in which no batch may come (settle: 20 ms)
        #expect(fixture.collector.all.isEmpty)
        fixture.source.emit([try fixture.event(.closedAfterWrite, "Menu.strings")])
        #expect(fixture.collector.wait { _ in fixture.collector.files == [file] })
    }

    /// A symbolic link, like a hard link, is complete when it appears: no close will follow.
    @Test func aCreatedLinkIsReportedAtOnce() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let file = fixture.ja + "/Menu.strings"
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "Localizable.strings")
        fixture.source.emit([try fixture.event(.created, "Menu.strings")])
        #expect(fixture.collector.wait { _ in fixture.collector.files == [file] })
    }

    /// A file saved, then opened for writing again before its batch settles, is held until
    /// the second close: its content in between is not complete.
    @Test func aFileBeingWrittenIsHeldUntilClosed() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let file = fixture.ja + "/Localizable.strings"
        fixture.source.emit([try fixture.event(.closedAfterWrite, "Localizable.strings")])
        fixture.source.emit([try fixture.event(.modified, "Localizable.strings")])
        Thread.sleep(forTimeInterval: 0.15)  // a window in which no batch may come (settle: 20 ms)
        #expect(fixture.collector.all.isEmpty)
        fixture.source.emit([try fixture.event(.closedAfterWrite, "Localizable.strings")])
        #expect(fixture.collector.wait { _ in fixture.collector.files == [file] })
        #expect(fixture.collector.all.count == 1)
    }

    @Test func overflowAsksForAFullRescan() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.source.emit([.queueOverflow("test overflow")])
        #expect(fixture.collector.wait { $0.contains(where: \.fullRescan) })
        let batch = try #require(fixture.collector.all.first)
        #expect(batch.reasons == ["test overflow"])
        #expect(batch.directories.contains(fixture.directory.path))
        #expect(batch.files.contains(fixture.ja + "/Localizable.strings"))
        #expect(fixture.watcher.statistics.overflows == 1)
        #expect(fixture.watcher.statistics.rescans == 1)
    }

    @Test func unknownWatchDescriptorAsksForAFullRescan() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.source.emit([FileSystemEvent(watch: WatchDescriptor(rawValue: 999), mask: .created, name: "x.strings")])
        #expect(fixture.collector.wait { $0.contains(where: \.fullRescan) })
        #expect(fixture.collector.all.first?.reasons == ["event for unknown wd 999"])
    }

    @Test func failedWatchIsReportedAndAsksForARescan() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.source.emit([.needsRescan("cannot watch /x: limit reached")])
        #expect(fixture.collector.wait { $0.contains(where: \.fullRescan) })
        #expect(fixture.watcher.statistics.lastError == "cannot watch /x: limit reached")
    }

    @Test func removedWatchDropsItsBookkeeping() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let watch = try #require(fixture.source.watch(for: fixture.ja))
        try FileManager.default.removeItem(atPath: fixture.ja)
        fixture.source.emit([
            FileSystemEvent(watch: watch, mask: .deletedSelf),
            FileSystemEvent(watch: watch, mask: .watchRemoved),
        ])
        #expect(fixture.collector.wait { $0.contains { $0.directories.contains(fixture.ja) } })
        #expect(!fixture.watcher.watchedDirectories.contains(fixture.ja))
        #expect(fixture.watcher.statistics.watchCount == 2)
        #expect(fixture.collector.all.allSatisfy { !$0.fullRescan }, "late events of a removed watch are expected")
    }

    @Test func newDirectoryIsWatchedThenScanned() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try fixture.directory.makeDirectory("ko.lproj")
        try fixture.directory.write("ko.lproj/Localizable.strings")
        fixture.source.emit([try fixture.event([.created, .isDirectory], "ko.lproj", in: fixture.directory.path)])
        let ko = fixture.directory.path + "/ko.lproj"
        #expect(fixture.collector.wait { _ in fixture.collector.files.contains(ko + "/Localizable.strings") })
        #expect(fixture.watcher.watchedDirectories.contains(ko))
        #expect(fixture.source.watch(for: ko) != nil)
    }

    @Test func explicitRescanDeliversAtOnce() throws {
        let fixture = try Fixture(settle: .seconds(5))
        defer { fixture.finish() }
        fixture.watcher.rescan(reason: "SIGHUP")
        let batch = try #require(fixture.collector.all.first, "delivered before rescan() returns")
        #expect(batch.fullRescan)
        #expect(batch.reasons == ["SIGHUP"])
    }

    @Test func stopDeliversNothingMore() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        fixture.watcher.stop()
        fixture.source.emit([try fixture.event(.closedAfterWrite, "Localizable.strings")])
        Thread.sleep(forTimeInterval: 0.1)  // a window in which no batch may come
        #expect(fixture.collector.all.isEmpty)
    }
}

/// The ignore rules on their own.
@Suite struct EditorTempFilesTests {
    @Test(arguments: [
        "4913", "5036", "a~", ".a.swp", ".a.swx", "a___jb_tmp___", "a___jb_old___", ".#a", "#a#", "a.tmp", ".~tmp~",
        ".a.strings.Xy12Zq", "..2026_01_01",
    ])
    func temporary(name: String) {
        #expect(EditorTempFiles.isTemporary(name))
        #expect(!EditorTempFiles.isResourceFile(name))
    }

    @Test(arguments: ["Localizable.strings", "Plurals.stringsdict", "Catalog.xcstrings", "#1.strings"])
    func resources(name: String) {
        #expect(!EditorTempFiles.isTemporary(name))
        #expect(EditorTempFiles.isResourceFile(name))
    }
}
