import Foundation
import LocalizationDaemon
import Synchronization
import TestSupport
import Testing

/// The libinotifytools backend on its own, with real directories.
@Suite struct InotifyEventSourceTests {
    final class EventLog: Sendable {
        private let events = Mutex<[FileSystemEvent]>([])
        func record(_ batch: [FileSystemEvent]) { events.withLock { $0 += batch } }
        var all: [FileSystemEvent] { events.withLock { $0 } }

        func wait(timeout: Duration = .seconds(5), for condition: (FileSystemEvent) -> Bool) -> Bool {
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            while clock.now < deadline {
                if all.contains(where: condition) { return true }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return all.contains(where: condition)
        }
    }

    @Test func createdFileArrivesWithNameAndDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog()
        let source = InotifyEventSource()
        defer { source.stop() }
        try source.start { log.record($0) }
        let watch = try source.addWatches([directory.path]).first!.get()
        try directory.write("Localizable.strings")
        #expect(log.wait { $0.name == "Localizable.strings" && $0.mask.contains(.created) })
        #expect(log.wait { $0.name == "Localizable.strings" && $0.mask.contains(.closedAfterWrite) })
        let event = try #require(log.all.first)
        #expect(event.watch == watch)
        #expect(event.directory == directory.path)
    }

    @Test func renamesPairByCookieAndDirectoriesAreMarked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog()
        let source = InotifyEventSource()
        defer { source.stop() }
        try source.start { log.record($0) }
        _ = try source.addWatches([directory.path]).first!.get()
        try directory.write("a.strings")
        try FileManager.default.moveItem(atPath: directory.path + "/a.strings", toPath: directory.path + "/b.strings")
        try directory.makeDirectory("ko.lproj")
        #expect(log.wait { $0.name == "ko.lproj" && $0.mask.contains([.created, .isDirectory]) })
        let from = try #require(log.all.first { $0.mask.contains(.movedFrom) })
        let to = try #require(log.all.first { $0.mask.contains(.movedTo) })
        #expect(from.name == "a.strings" && to.name == "b.strings")
        #expect(from.cookie == to.cookie && from.cookie != 0)
    }

    @Test func watchFailuresAreExplained() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("plain.strings")
        let source = InotifyEventSource()
        defer { source.stop() }
        try source.start { _ in }
        let results = source.addWatches([directory.path + "/missing", file])
        #expect(throws: FileSystemWatchError.self) { try results[0].get() }
        #expect(results.map { (try? $0.get()) == nil } == [true, true])
        if case .failure(let error) = results[0] {
            #expect(error.code == .notFound)
            #expect(error.message == "cannot watch \(directory.path)/missing: it does not exist")
        }
        if case .failure(let error) = results[1] {
            #expect(error.code == .notDirectory)
        }
    }

    /// The watch limit reached (through the test-only limit file: lowering the real
    /// `fs.inotify.max_user_watches` would break every other inotify user of the machine):
    /// the watch fails with a message naming the sysctl, and no event asks for a rescan —
    /// the caller retries, a rescan would only fail the same way again.
    @Test func theWatchLimitFailsTheWatchAndAsksForNoRescan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let limit = try directory.write("1\n", to: "max_user_watches")
        let first = try directory.makeDirectory("a")
        let second = try directory.makeDirectory("b")
        let log = EventLog()
        let source = InotifyEventSource(watchLimitFile: limit)
        defer { source.stop() }
        try source.start { log.record($0) }
        let results = source.addWatches([first, second, first])
        #expect((try? results[0].get()) != nil)
        #expect((try? results[2].get()) == (try? results[0].get()), "watching a directory again takes no new watch")
        guard case .failure(let error) = results[1] else {
            Issue.record("the second watch was added past the limit")
            return
        }
        #expect(error.code == .watchLimitReached && error.leavesDirectoryUnwatched)
        #expect(error.message.contains("fs.inotify.max_user_watches = 1"))
        Thread.sleep(forTimeInterval: 0.2)  // a window in which no rescan may be asked for
        #expect(!log.all.contains { $0.mask.contains(.needsRescan) })

        try directory.write("2\n", to: "max_user_watches")
        #expect((try? source.addWatches([second]).first?.get()) != nil, "the limit raised")
    }

    @Test func removedWatchEndsWithWatchRemoved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = EventLog()
        let source = InotifyEventSource()
        defer { source.stop() }
        try source.start { log.record($0) }
        let watch = try source.addWatches([directory.path]).first!.get()
        source.removeWatch(watch)
        #expect(log.wait { $0.watch == watch && $0.mask.contains(.watchRemoved) })
    }

    @Test func deletedDirectoryReportsItselfGone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inner = try directory.makeDirectory("ja.lproj")
        let log = EventLog()
        let source = InotifyEventSource()
        defer { source.stop() }
        try source.start { log.record($0) }
        let watch = try source.addWatches([inner]).first!.get()
        try FileManager.default.removeItem(atPath: inner)
        #expect(log.wait { $0.watch == watch && $0.mask.contains(.deletedSelf) })
        #expect(log.wait { $0.watch == watch && $0.mask.contains(.watchRemoved) })
    }

    @Test func twoSourcesShareADirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = EventLog(), second = EventLog()
        let a = InotifyEventSource(), b = InotifyEventSource()
        defer {
            a.stop()
            b.stop()
        }
        try a.start { first.record($0) }
        try b.start { second.record($0) }
        let watchA = try a.addWatches([directory.path]).first!.get()
        let watchB = try b.addWatches([directory.path]).first!.get()
        #expect(watchA == watchB)
        a.stop()
        a.stop()
        try directory.write("x.strings")
        #expect(second.wait { $0.name == "x.strings" })
        // A window in which the stopped source may deliver nothing: only time marks its end.
        Thread.sleep(forTimeInterval: 0.05)
        // Other suites run concurrently on the same (process-wide) inotify instance, so only
        // this test's own event is meaningful here.
        #expect(!first.all.contains { $0.name == "x.strings" }, "a stopped source delivers nothing")
    }

    @Test func notStartedSourceRefusesWatches() throws {
        let source = InotifyEventSource()
        let results = source.addWatches(["/tmp"])
        if case .failure(let error) = results.first {
            #expect(error.code == .notRunning)
        } else {
            Issue.record("expected a failure, got \(results)")
        }
    }
}
