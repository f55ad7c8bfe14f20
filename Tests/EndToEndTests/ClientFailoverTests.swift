import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// The client when the daemon dies, hangs, is absent, or comes back: no call crashes,
/// waits past the time limit, or returns anything but the last good value or the file's.
@Suite struct ClientFailoverTests {
    /// A stable socket path for clients, a symbolic link to whichever daemon runs now:
    /// each `DaemonProcess` listens in a directory of its own.
    final class DaemonSlot {
        let directory: TemporaryDirectory
        let path: String
        var daemon: DaemonProcess?

        init() throws {
            directory = try TemporaryDirectory(prefix: "l10nd-slot")
            path = directory.path + "/current.sock"
        }

        func start(resources: String) throws {
            let daemon = try DaemonProcess(resources: [resources])
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: daemon.socketPath)
            self.daemon = daemon
        }

        func kill() {
            daemon?.send(signal: SIGKILL)
            _ = daemon?.stop()
        }
    }

    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
        var handler: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    static func resources() throws -> TemporaryDirectory {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"value\";\n", to: "ja.lproj/Localizable.strings")
        try resources.write("\"多言語化\" = \"Multilingualization\";\n", to: "en.lproj/Localizable.strings")
        return resources
    }

    /// Eight threads look up in a loop while the daemon is killed and started again.
    @Test(arguments: [
        (LookupMode.mapped, true), (.mapped, false), (.direct, true), (.direct, false),
    ])
    func killAndRestartUnderLoad(mode: LookupMode, withFiles: Bool) throws {
        let resources = try Self.resources()
        let slot = try DaemonSlot()
        try slot.start(resources: resources.path)
        let log = LogLines()
        let localizer = Localizer(environment: [:], log: log.handler)
        if withFiles { localizer.useResources(at: [resources.path]) }
        // Long enough for a daemon just started on a loaded machine to answer the first,
        // table-fetching lookup; the bound below still tells a call that waits past it.
        let timeout = 2.0
        localizer.useDaemon(socketPath: slot.path, mode: mode, timeout: timeout)
        #expect(localizer.source == .daemon)
        // Warm: the last good values are known before the daemon dies.
        #expect(localizer.lookup("k", languages: ["ja"]).value == "value")
        #expect(localizer.value("多言語化", languages: .one("en"), table: nil) == "Multilingualization")

        let stop = Atomic<Bool>(false)
        let wrong = Mutex<[String]>([])
        let slowest = Mutex<Double>(0)
        let calls = Atomic<Int>(0)
        let group = DispatchGroup()
        for thread in 0..<8 {
            // Threads of their own: the shared Dispatch pool is busy with other suites.
            group.enter()
            Thread {
                defer { group.leave() }
                while !stop.load(ordering: .relaxed) {
                    let started = Date()
                    let (key, tag, expected) =
                        thread % 2 == 0 ? ("k", "ja", "value") : ("多言語化", "en", "Multilingualization")
                    let value =
                        thread < 4
                        ? localizer.value(key, languages: .one(tag), table: nil)
                        : localizer.lookup(key, languages: [tag]).value
                    let elapsed = Date().timeIntervalSince(started)
                    slowest.withLock { $0 = max($0, elapsed) }
                    if value != expected { wrong.withLock { $0.append(value) } }
                    calls.add(1, ordering: .relaxed)
                }
            }.start()
        }
        // Each phase (daemon up, killed, back) runs under the load for a while: these pauses
        // are the load's duration, not waits for an event.
        usleep(200_000)
        slot.kill()
        #expect(Self.wait(seconds: 5) { localizer.source != .daemon })
        #expect(localizer.source == (withFiles ? .files : .lastKnown))
        usleep(300_000)
        try slot.start(resources: resources.path)
        #expect(Self.wait(seconds: 5) { localizer.source == .daemon }, "the client did not return to the daemon")
        usleep(200_000)
        stop.store(true, ordering: .relaxed)
        #expect(group.wait(timeout: .now() + 10) == .success)

        #expect(wrong.withLock { $0 }.isEmpty, "wrong values: \(Set(wrong.withLock { $0 }))")
        #expect(slowest.withLock { $0 } < timeout + 0.5, "a call took \(slowest.withLock { $0 }) s")
        #expect(calls.load(ordering: .relaxed) > 8)
        // One line per change of source, not per call.
        let lines = log.all
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("unreachable") == true)
        #expect(lines.last?.contains("lookups go to the daemon") == true)
        // Back on the daemon: direct lookups reach it again.
        if mode == .direct {
            _ = localizer.lookup("counted", languages: ["ja"])
            let missing = try slot.daemon!.request(["op": "missing"])["missing"] as? [[String: Any]] ?? []
            #expect(missing.contains { $0["key"] as? String == "counted" })
        }
    }

    @Test func aHungDaemonCostsAtMostTheTimeLimit() throws {
        let resources = try Self.resources()
        let slot = try DaemonSlot()
        try slot.start(resources: resources.path)
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useResources(at: [resources.path])
        localizer.useDaemon(socketPath: slot.path, mode: .direct, timeout: 0.3)
        #expect(localizer.lookupWithSource("k", languages: ["ja"]).source == .daemon)
        #expect(slot.daemon?.suspend() == true)
        defer { slot.daemon?.send(signal: SIGCONT) }
        let started = Date()
        let (result, source) = localizer.lookupWithSource("k", languages: ["ja"])
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(result.value == "value")
        // The files are read from the moment a lookup spent its limit (no grace beyond it):
        // this one answers what the daemon said before, the next ones the files.
        #expect(source == .files || source == .lastKnown, "\(source)")
        #expect(
            ClientDaemonTests.wait(seconds: 5) { localizer.lookupWithSource("k", languages: ["ja"]).source == .files })
        // Until the daemon answers again, calls do not wait at all.
        let next = Date()
        #expect(localizer.lookup("k", languages: ["ja"]).value == "value")
        #expect(Date().timeIntervalSince(next) < 0.2)
        slot.daemon?.send(signal: SIGCONT)
        #expect(Self.wait(seconds: 5) { localizer.source == .daemon })
    }

    @Test func noDaemonAtStartThenOneAppears() throws {
        let resources = try Self.resources()
        let slot = try DaemonSlot()
        let log = LogLines()
        let localizer = Localizer(environment: [:], log: log.handler)
        localizer.useDaemon(socketPath: slot.path, mode: .mapped, timeout: 0.5)
        // Never reached, the daemon said nothing to fall back on: the keys answer, and say so.
        #expect(localizer.source == .keys)
        #expect(localizer.lookupWithSource("k", languages: ["ja"]) == (LookupResult.missing("k"), .keys))
        localizer.useResources(at: [resources.path])
        #expect(localizer.source == .files)
        #expect(localizer.lookup("k", languages: ["ja"]).value == "value")
        try slot.start(resources: resources.path)
        #expect(Self.wait(seconds: 5) { localizer.source == .daemon })
        #expect(
            localizer.lookupWithSource("k", languages: ["ja"]) == (
                LookupResult(value: "value", found: true, language: try LanguageTag("ja"), entry: nil), .daemon
            ))
        #expect(log.all.count == 2, "\(log.all)")
    }

    @Test func environmentPicksTheMode() throws {
        let none = "/tmp/l10nd-no-such-dir/none.sock"
        #expect(Localizer(environment: [:]).mode == .embedded)
        #expect(Localizer(environment: ["L10N_SOCKET": none], log: { _ in }).mode == .mapped)
        // Cached mode is gone: its name means mapped mode (the same answers), said once.
        let log = LogLines()
        #expect(Localizer(environment: ["L10N_SOCKET": none, "L10N_MODE": "cached"], log: log.handler).mode == .mapped)
        #expect(log.all.contains { $0.contains("L10N_MODE=cached") && $0.contains("mapped mode") }, "\(log.all)")
        #expect(Localizer(environment: ["L10N_SOCKET": none, "L10N_MODE": "direct"], log: { _ in }).mode == .direct)
        #expect(Localizer(environment: ["L10N_SOCKET": none, "L10N_MODE": "embedded"]).mode == .embedded)
        let keysOnly = Localizer(environment: ["L10N_SOCKET": none, "L10N_MODE": "embedded"])
        #expect(keysOnly.source == .keys)
    }
}
