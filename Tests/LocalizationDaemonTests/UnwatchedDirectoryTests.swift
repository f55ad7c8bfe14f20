import Foundation
import LocalizationCore
import TestSupport
import Testing

@testable import LocalizationDaemon

/// Directories the watcher cannot watch, on a fake source that fails the watches as the
/// kernel would (`EACCES`, `ENOSPC`): listed with the reason, never a full rescan, retried
/// with backoff, polled so that edits still arrive. The same on real inotify, with real
/// permissions and a daemon run as `nobody`: `EndToEndTests.UnwatchedDirectoryDaemonTests`.
@Suite struct UnwatchedDirectoryTests {
    typealias Fixture = ResourceWatcherTests.Fixture

    @Test func aFailedWatchIsListedPolledAndRetriedWithoutARescan() throws {
        let fixture = try Fixture(failing: ["ja.lproj": .watchLimitReached])
        defer { fixture.finish() }
        let statistics = fixture.watcher.statistics
        #expect(statistics.unwatched.map(\.path) == [fixture.ja])
        #expect(statistics.unwatched.first?.reason == .watchLimitReached)
        #expect(statistics.unwatched.first?.polled == true)
        #expect(statistics.unwatchedCount == 1)
        #expect(!fixture.watcher.watchedDirectories.contains(fixture.ja))

        // An edit in the unwatched directory arrives through the poll (every 2 s).
        Thread.sleep(forTimeInterval: 0.05)  // a different modification time
        try fixture.directory.write("ja.lproj/Localizable.strings", "\"k\" = \"two\";\n")
        #expect(fixture.collector.wait(timeout: .seconds(15)) { $0.contains { $0.directories.contains(fixture.ja) } })
        #expect(fixture.watcher.statistics.polledChanges >= 1)

        // Retried with backoff (1 s, 2 s, 4 s, …): a few attempts, not a loop; no rescan.
        // Attempts are counted over a window of time, so the wait is the measurement.
        Thread.sleep(forTimeInterval: 2.5)
        let attempts = fixture.source.attempts(for: fixture.ja)
        #expect(attempts >= 2 && attempts <= 6, "\(attempts) attempts in about 3 s")
        #expect(fixture.watcher.statistics.rescans == 0)
        #expect(fixture.collector.all.allSatisfy { !$0.fullRescan })

        // The limit lifted: the next retry watches it and re-reads it whole.
        fixture.source.fail(fixture.ja, with: nil)
        let watched = fixture.collector.wait(timeout: .seconds(20)) { _ in
            fixture.watcher.statistics.unwatchedCount == 0
        }
        #expect(watched)
        #expect(fixture.watcher.watchedDirectories.contains(fixture.ja))
        #expect(fixture.watcher.statistics.unwatched.isEmpty)
    }

    @Test func aDirectoryThatCannotBeWatchedOrListedIsNotPolled() throws {
        let fixture = try Fixture(failing: ["ja.lproj": .permissionDenied])
        defer { fixture.finish() }
        let entry = try #require(fixture.watcher.statistics.unwatched.first)
        #expect(entry.path == fixture.ja && entry.reason == .permissionDenied)
        #expect(fixture.watcher.statistics.lastError == entry.message)
        #expect(fixture.watcher.statistics.rescans == 0)
    }

    @Test func deletingAnUnwatchedDirectoryClearsIt() throws {
        let fixture = try Fixture(failing: ["ja.lproj": .watchLimitReached])
        defer { fixture.finish() }
        let root = try #require(fixture.source.watch(for: fixture.directory.path))
        try FileManager.default.removeItem(atPath: fixture.ja)
        fixture.source.emit([FileSystemEvent(watch: root, mask: [.deleted, .isDirectory], name: "ja.lproj")])
        #expect(fixture.collector.wait { _ in fixture.watcher.statistics.unwatchedCount == 0 })
    }

    /// One depth rule: the `.lproj` at the deepest level read is watched too, and the
    /// directory one level deeper is neither read nor watched, and listed as such.
    @Test func theScannerAndTheWatcherFollowOneDepthRule() throws {
        let limit = ResourceScanner.maximumDepth
        let chain = (1..<limit).map { "d\($0)" }.joined(separator: "/")
        let fixture = try Fixture { directory in
            try directory.write(chain + "/fr.lproj/Localizable.strings")
            try directory.write(chain + "/d\(limit)/de.lproj/Localizable.strings")
        }
        defer { fixture.finish() }
        let root = fixture.directory.path
        let deep = root + "/" + chain + "/fr.lproj"
        let deeper = root + "/" + chain + "/d\(limit)/de.lproj"
        #expect(ResourceScanner.depth(of: deep, below: root) == limit)
        #expect(fixture.watcher.watchedDirectories.contains(deep))
        #expect(!fixture.watcher.watchedDirectories.contains(deeper))
        #expect(fixture.watcher.statistics.unwatched.map(\.path) == [deeper])
        #expect(fixture.watcher.statistics.unwatched.first?.reason == .tooDeep)
        let scanned = ResourceScanner.scan(directory: root, rootIndex: 0).map(\.path)
        #expect(scanned.contains(deep + "/Localizable.strings"))
        #expect(!scanned.contains(deeper + "/Localizable.strings"))
    }

    @Test(arguments: [
        (FileSystemWatchError.Code.permissionDenied, FileSystemWatchError.Code.permissionDenied),
        (.watchLimitReached, .watchLimitReached), (.descriptorsExhausted, .descriptorsExhausted), (.other, .other),
    ])
    func eachFailureIsListedWithItsReason(code: FileSystemWatchError.Code, reason: FileSystemWatchError.Code) throws {
        let fixture = try Fixture(failing: ["ja.lproj": code])
        defer { fixture.finish() }
        #expect(fixture.watcher.statistics.unwatched.map(\.reason) == [reason])
        #expect(fixture.watcher.statistics.rescans == 0)
    }

    @Test func retriesBackOffToAMinute() {
        let delays = (0..<9).map { UnwatchedDirectories.retryDelay(afterFailures: $0) / .seconds(1) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60])
    }
}

@Suite struct PathTreeTests {
    @Test func findsWhatIsAtOrBelowAPath() {
        var tree = PathTree()
        for path in ["/r/a", "/r/a/x.strings", "/r/ab/y.strings", "/r/b/c/d", "/r"] { tree.insert(path) }
        #expect(Set(tree.paths(atOrBelow: "/r/a")) == ["/r/a", "/r/a/x.strings"])
        #expect(Set(tree.paths(atOrBelow: "/r/b")) == ["/r/b/c/d"], "through a path that is not held")
        #expect(tree.holdsAny(atOrBelow: "/r/b") && !tree.contains("/r/b"))
        #expect(tree.paths(atOrBelow: "/r").count == 5)
        tree.remove("/r/b/c/d")
        #expect(!tree.holdsAny(atOrBelow: "/r/b"))
        tree.remove("/r/a")
        #expect(tree.paths(atOrBelow: "/r/a") == ["/r/a/x.strings"])
        #expect(tree.count == 3)
        #expect(PathTree.parent(of: "/r") == "/" && PathTree.parent(of: "/") == nil)
    }
}
