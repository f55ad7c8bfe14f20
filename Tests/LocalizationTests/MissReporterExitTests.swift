import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Localization

/// The hook a process runs at exit (`atexit`): pending misses are sent, but a daemon that
/// does not answer never holds the exit up for more than ``MissReporter/exitFlushLimit``.
@Suite(.serialized) struct MissReporterExitTests {
    @Test func pendingMissesAreSentBeforeExit() {
        let sent = Mutex<[[String]]>([])
        let reporter = MissReporter(interval: 3600) { batch, done in
            sent.withLock { $0.append(batch.keys) }
            done(.answered)
        }
        // The first miss is sent at once; the second waits for the interval, or the exit.
        reporter.record("first", in: MissReporter.TableKey(languages: ["ja"], table: "Localizable"))
        reporter.record("last", in: MissReporter.TableKey(languages: ["ja"], table: "Localizable"))
        #expect(sent.withLock { $0 } == [["first"]])
        // A limit far above the exit's: what is checked here is that the misses are sent, and
        // a loaded machine (or another suite's reporter, flushed too) may take a while.
        MissReporter.flushAllBeforeExit(limit: 20)
        #expect(sent.withLock { $0 } == [["first"], ["last"]])
        #expect(!reporter.hasPending)
    }

    @Test func aSendThatHangsDoesNotHoldTheExit() {
        let release = DispatchSemaphore(value: 0)
        // Answered only when released (never, within the exit's limit).
        // The unanswered key is said at the exit, not here.
        let reporter = MissReporter(interval: 3600, say: { _ in }) { _, done in
            Thread {
                _ = release.wait(timeout: .now() + 30)
                done(.answered)
            }.start()
        }
        reporter.record("first", in: MissReporter.TableKey(languages: ["ja"], table: "Localizable"))
        reporter.record("k", in: MissReporter.TableKey(languages: ["ja"], table: "Localizable"))
        let started = Date()
        MissReporter.flushAllBeforeExit()
        let waited = Date().timeIntervalSince(started)
        release.signal()
        // The limit is 0.5 s; the margin is for a loaded machine, far below the hung 30 s.
        #expect(waited >= MissReporter.exitFlushLimit * 0.9 && waited < 10, "waited \(waited) s")
    }
}
