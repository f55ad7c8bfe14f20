import Foundation
import LocalizationDaemon
import Synchronization
import TestSupport
import Testing

/// A resource file that vanishes is reported only once its grace has passed, so a
/// safe-writing editor whose two renames are far apart never shows the gap.
@Suite struct ResourceWatcherVanishTests {
    /// Batches, each with whether every file it names existed when it was delivered.
    final class Recorder: Sendable {
        let collector = BatchCollector()
        let deliveredWhileMissing = Mutex<[String]>([])
        let firstDelivery = Mutex<ContinuousClock.Instant?>(nil)

        func record(_ batch: ChangeBatch) {
            let missing = batch.files.filter { !FileManager.default.fileExists(atPath: $0) }
            deliveredWhileMissing.withLock { $0 += missing }
            firstDelivery.withLock { $0 = $0 ?? ContinuousClock.now }
            collector.record(batch)
        }
    }

    func watch(_ directory: TemporaryDirectory, vanishGrace: Duration) throws -> (ResourceWatcher, Recorder) {
        let recorder = Recorder()
        let watcher = ResourceWatcher(
            roots: [directory.path], source: InotifyEventSource(), options: .init(vanishGrace: vanishGrace)
        ) { recorder.record($0) }
        try watcher.start()
        return (watcher, recorder)
    }

    /// JetBrains' safe write with its two renames 150 ms apart, several settle windows: the
    /// file is reported once, after it is back.
    @Test func aSlowSafeWriteIsReportedOnlyWithTheNewFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let (watcher, recorder) = try watch(directory, vanishGrace: .seconds(2))
        defer { watcher.stop() }
        let file = directory.path + "/ja.lproj/Localizable.strings"
        _ = try directory.write("\"k\" = \"idea\";\n", to: "ja.lproj/Localizable.strings___jb_tmp___")
        try FileManager.default.moveItem(atPath: file, toPath: file + "___jb_old___")
        usleep(150_000)  // the pause between the two renames, the point of the test
        try FileManager.default.moveItem(atPath: file + "___jb_tmp___", toPath: file)
        try FileManager.default.removeItem(atPath: file + "___jb_old___")
        #expect(recorder.collector.wait { batches in batches.contains { $0.files.contains(file) } })
        #expect(recorder.deliveredWhileMissing.withLock { $0 }.isEmpty, "\(recorder.collector.all)")
    }

    /// A file deleted for good is reported, no sooner than its grace.
    @Test func aDeletedFileIsReportedAfterItsGrace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        let (watcher, recorder) = try watch(directory, vanishGrace: .milliseconds(400))
        defer { watcher.stop() }
        let file = directory.path + "/ja.lproj/Localizable.strings"
        let deleted = ContinuousClock.now
        try FileManager.default.removeItem(atPath: file)
        #expect(recorder.collector.wait { batches in batches.contains { $0.files.contains(file) } })
        let delivered = try #require(recorder.firstDelivery.withLock { $0 })
        #expect(delivered - deleted >= .milliseconds(400))
        #expect(recorder.deliveredWhileMissing.withLock { $0 } == [file])
    }

    /// Other changes in the meantime are not held back with the vanished file.
    @Test func otherFilesAreNotHeldBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("\"k\" = \"ja\";\n", to: "ja.lproj/Localizable.strings")
        _ = try directory.write("\"k\" = \"de\";\n", to: "de.lproj/Localizable.strings")
        let (watcher, recorder) = try watch(directory, vanishGrace: .seconds(30))
        defer { watcher.stop() }
        let gone = directory.path + "/ja.lproj/Localizable.strings"
        let changed = directory.path + "/de.lproj/Localizable.strings"
        try FileManager.default.removeItem(atPath: gone)
        _ = try directory.write("\"k\" = \"neu\";\n", to: "de.lproj/Localizable.strings")
        #expect(recorder.collector.wait { batches in batches.contains { $0.files.contains(changed) } })
        #expect(!recorder.collector.files.contains(gone), "\(recorder.collector.all)")
    }
}
