import Foundation
import LocalizationSockets
import Synchronization
import TestSupport
import Testing

@testable import LocalizationDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// `SystemdNotifier` against a real datagram socket standing in for systemd's.
@Suite struct SystemdNotifierTests {
    /// A bound `SOCK_DGRAM` socket that reads back what the notifier sent (2 s timeout per read).
    final class FakeNotifySocket {
        let address: String
        let descriptor: Int32
        private let directory: TemporaryDirectory?

        init(abstract: Bool) throws {
            if abstract {
                directory = nil
                address = "@l10nd-test-\(UUID().uuidString)"
            } else {
                let directory = try TemporaryDirectory()
                self.directory = directory
                address = directory.path + "/notify.sock"
            }
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(descriptor >= 0)
            let parsed = try #require(UnixSocketAddress(address))
            let bound = parsed.withSockaddr { bind(descriptor, $0, $1) }
            try #require(bound == 0, "bind \(address): \(String(cString: strerror(errno)))")
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit {
            close(descriptor)
            directory?.remove()
        }

        /// The next datagram, or nil after the timeout.
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count >= 0 else { return nil }
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    @Test(arguments: [false, true])
    func messagesArriveAsSystemdExpectsThem(abstract: Bool) throws {
        let fake = try FakeNotifySocket(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": fake.address])
        #expect(notifier.isEnabled)
        #expect(notifier.socketAddress == fake.address)
        try notifier.ready(status: "serving 3 languages")
        #expect(fake.receive() == "READY=1\nSTATUS=serving 3 languages\n")
        try notifier.status("2 errors\nin ja")
        #expect(fake.receive() == "STATUS=2 errors in ja\n")
        try notifier.reloading()
        let reloading = try #require(fake.receive())
        let lines = reloading.split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        #expect(lines.count == 2 && lines[1].hasPrefix("MONOTONIC_USEC=") && UInt64(lines[1].dropFirst(15)) != nil)
        try notifier.stopping()
        #expect(fake.receive() == "STOPPING=1\n")
        try notifier.watchdog()
        #expect(fake.receive() == "WATCHDOG=1\n")
    }

    /// The first failure of a send, as another thread saw it.
    final class FailureBox: Sendable {
        let value = Mutex<SystemdNotifier.Failure?>(nil)
    }

    /// A notify socket whose reader stopped reading fills up; sending then fails at once
    /// instead of blocking the reload or stop that wanted to notify.
    @Test func aFullNotifySocketFailsInsteadOfBlocking() throws {
        let fake = try FakeNotifySocket(abstract: false)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": fake.address])
        let failure = FailureBox()
        let done = DispatchSemaphore(value: 0)
        // On another thread, so a notifier that blocks fails this test instead of hanging it.
        DispatchQueue.global().async {
            for _ in 0..<100_000 {
                do throws(SystemdNotifier.Failure) {
                    try notifier.status(String(repeating: "x", count: 1000))
                } catch {
                    failure.value.withLock { $0 = error }
                    break
                }
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "sending to a full notify socket blocked")
        withExtendedLifetime(fake) {}  // the reader must stay bound, unread, until the sends are done
        let error = failure.value.withLock { $0 }
        #expect(error?.message.contains("Resource temporarily unavailable") == true, "\(String(describing: error))")
    }

    @Test func withoutNotifySocketEverythingIsANoOp() throws {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "1000000"])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.problem == nil)
        try notifier.ready()
        try notifier.status("x")
        #expect(notifier.startWatchdog() == false)
    }

    @Test(arguments: ["relative/path", "@", "/" + String(repeating: "x", count: 200)])
    func unusableAddressIsExplained(address: String) throws {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
        #expect(!notifier.isEnabled)
        #expect(notifier.problem?.contains("NOTIFY_SOCKET=") == true)
    }

    @Test func sendFailureIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.path + "/nobody.sock"])
        #expect(throws: SystemdNotifier.Failure.self) { try notifier.ready() }
    }

    @Test func watchdogPingsEveryHalfInterval() throws {
        let fake = try FakeNotifySocket(abstract: true)
        let notifier = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": fake.address, "WATCHDOG_USEC": "100000", "WATCHDOG_PID": "4242"],
            processID: 4242)
        #expect(notifier.watchdogInterval == .milliseconds(100))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(notifier.startWatchdog())
        for _ in 0..<4 {
            #expect(fake.receive() == "WATCHDOG=1\n")
        }
        // Four pings at 0, 50, 100, 150 ms: well under the 2 s read timeout each.
        #expect(clock.now - start < .seconds(1))
        notifier.stopWatchdog()
    }

    @Test func watchdogForAnotherProcessIsIgnored() {
        let notifier = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": "@l10nd-unused", "WATCHDOG_USEC": "100000", "WATCHDOG_PID": "1"],
            processID: 4242)
        #expect(notifier.watchdogInterval == nil)
        #expect(!notifier.startWatchdog())
    }
}
