import Foundation
import LocalizationDaemon
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// On real inotify: a file is reported only once it is complete — closed after writing or
/// moved into place — and a directory renamed away and back is never reported in between
/// (docs/DAEMON.md, "When a file is read").
@Suite struct ResourceWatcherCompleteFileTests {
    /// What each delivered batch found on disk at the moment it was delivered.
    final class Recorder: Sendable {
        let collector = BatchCollector()
        /// The content of `watchedFile` at each delivery that named it.
        let contentsSeen = Mutex<[String]>([])
        /// Paths a batch named while they did not exist.
        let deliveredWhileMissing = Mutex<[String]>([])
        let watchedFile: String

        init(watchedFile: String) { self.watchedFile = watchedFile }

        func record(_ batch: ChangeBatch) {
            if batch.files.contains(watchedFile) {
                let content = (try? String(contentsOfFile: watchedFile, encoding: .utf8)) ?? "<unreadable>"
                contentsSeen.withLock { $0.append(content) }
            }
            let missing = (batch.files + batch.directories).filter { !FileManager.default.fileExists(atPath: $0) }
            deliveredWhileMissing.withLock { $0 += missing }
            collector.record(batch)
        }
    }

    func watch(_ directory: TemporaryDirectory, file: String) throws -> (ResourceWatcher, Recorder) {
        let recorder = Recorder(watchedFile: file)
        let watcher = ResourceWatcher(roots: [directory.path], source: InotifyEventSource()) { recorder.record($0) }
        try watcher.start()
        return (watcher, recorder)
    }

    static func table(_ version: String) -> String {
        (0..<20).map { "\"k\($0)\" = \"\(version) value \($0)\";\n" }.joined()
    }

    /// #1: a new file written in two chunks 150 ms apart (several settle windows): it is
    /// reported once closed, never while half of it is there.
    @Test func aNewFileWrittenInTwoChunksIsReportedOnlyOnceClosed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeDirectory("ja.lproj")
        let file = directory.path + "/ja.lproj/Localizable.strings"
        let (watcher, recorder) = try watch(directory, file: file)
        defer { watcher.stop() }
        let text = Self.table("new")
        SlowWriter.write(text, to: file, flags: O_CREAT | O_EXCL)
        #expect(recorder.collector.wait { _ in recorder.collector.files.contains(file) })
        let seen = recorder.contentsSeen.withLock { $0 }
        #expect(seen.allSatisfy { $0 == text }, "\(seen)")
    }

    /// #2: a file rewritten in place (`O_TRUNC`, half, pause, rest) right after its last
    /// save: the batch of that save settles while the rewrite is under way, and waits for it.
    @Test func aFileRewrittenInPlaceWhileItsLastSaveSettlesIsHeldUntilClosed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(Self.table("v0"), to: "ja.lproj/Localizable.strings")
        let (watcher, recorder) = try watch(directory, file: file)
        defer { watcher.stop() }
        for version in 1...3 {
            try Self.table("v\(version)a").write(toFile: file, atomically: false, encoding: .utf8)
            SlowWriter.write(Self.table("v\(version)b"), to: file, flags: O_TRUNC)
            usleep(100_000)  // a quiet moment, so the recorder reads what the batch settled on
        }
        #expect(recorder.collector.wait { _ in recorder.contentsSeen.withLock { $0.last } == Self.table("v3b") })
        let complete = Set((1...3).flatMap { [Self.table("v\($0)a"), Self.table("v\($0)b")] })
        let seen = recorder.contentsSeen.withLock { $0 }
        #expect(seen.allSatisfy { complete.contains($0) }, "a batch was delivered mid-write: \(seen)")
    }

    /// A hard link made to a complete file is complete at once: no close-write will come.
    @Test func aHardLinkIsReportedAtOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.makeDirectory("ja.lproj")
        let staged = try directory.write(Self.table("linked"), to: "staged.txt")
        let file = directory.path + "/ja.lproj/Localizable.strings"
        let (watcher, recorder) = try watch(directory, file: file)
        defer { watcher.stop() }
        #expect(link(staged, file) == 0)
        #expect(recorder.collector.wait { _ in recorder.collector.files.contains(file) })
        #expect(recorder.contentsSeen.withLock { $0 } == [Self.table("linked")])
    }

    /// #3: an `.lproj` renamed away and back, 100 ms apart (beyond the settle window, within
    /// the grace): no batch reports it while it is away.
    @Test func anLprojRenamedAwayAndBackIsNeverReportedGone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(Self.table("v0"), to: "ja.lproj/Localizable.strings")
        let (watcher, recorder) = try watch(directory, file: file)
        defer { watcher.stop() }
        let ja = directory.path + "/ja.lproj"
        for _ in 0..<3 {
            #expect(rename(ja, directory.path + "/.ja.lproj.away") == 0)
            usleep(10_000)  // well inside the grace even when this thread is scheduled late
            #expect(rename(directory.path + "/.ja.lproj.away", ja) == 0)
            usleep(300_000)  // its batch is delivered (and checked) before the next rename
        }
        #expect(recorder.collector.wait { batches in batches.contains { $0.directories.contains(ja) } })
        #expect(recorder.deliveredWhileMissing.withLock { $0 }.isEmpty, "\(recorder.collector.all)")
        // Watched again: a later save inside it is seen.
        try Self.table("v1").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(recorder.collector.wait { _ in recorder.contentsSeen.withLock { $0.last } == Self.table("v1") })
    }

    /// A file asked for again (the store held it, found empty) while a writer has it open
    /// after truncating it is not reported until the writer closes it.
    @Test func aRecheckWaitsForTheWriterToClose() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(Self.table("v0"), to: "ja.lproj/Localizable.strings")
        let (watcher, recorder) = try watch(directory, file: file)
        defer { watcher.stop() }
        let eventsBefore = watcher.statistics.events
        let descriptor = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
        #expect(descriptor >= 0)
        // The truncation's IN_MODIFY is handled (counted as it is handled, on the queue that
        // `recheck` joins after it).
        #expect(eventually(5) { watcher.statistics.events > eventsBefore })
        watcher.recheck(files: [file])
        usleep(400_000)  // a window in which no batch may come: only time marks its end
        #expect(recorder.collector.all.isEmpty, "reported while open for writing: \(recorder.collector.all)")
        let bytes = Array(Self.table("v1").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        #expect(recorder.collector.wait { _ in recorder.contentsSeen.withLock { $0 } == [Self.table("v1")] })
    }
}
