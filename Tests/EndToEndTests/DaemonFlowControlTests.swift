import Foundation
import Glibc
import TestSupport
import Testing

/// The real `l10nd` under the clients testers found harmful: a pipelining reader of large
/// replies, a 14 MB `table`, clients trickling a byte at a time, a non-reader flooding
/// `table` requests. Flow control serves the first two whole; time limits end the
/// tricklers; the flood costs the daemon a bounded amount of memory, others stay served, and
/// SIGTERM is obeyed promptly.
///
/// Serialized: the flood test measures one daemon's memory, and each wants the two cores.
@Suite(.serialized) struct DaemonFlowControlTests {
    /// A resource root with one table, `Big`, of `count` keys (`key-000042`) whose values are
    /// `valueBytes` long, in `xx.lproj` (a language no other table has).
    func bigTableRoot(count: Int, valueBytes: Int) throws -> TemporaryDirectory {
        let root = try TemporaryDirectory(prefix: "l10nd-big")
        let filler = String(repeating: "v", count: valueBytes - 7)
        var text = ""
        text.reserveCapacity(count * (valueBytes + 20))
        for index in 0..<count {
            let key = "key-" + String(index + 1_000_000).dropFirst()
            text += "\"\(key)\" = \"\(filler)\(String(index + 10_000_000).suffix(7))\";\n"
        }
        _ = try root.write(text, to: "xx.lproj/Big.strings")
        return root
    }

    /// A daemon on the example resources and `extraRoots`, with `settings` as its `l10nd.conf`.
    func startDaemon(_ settings: [String] = [], extraRoots: [String] = []) throws -> DaemonProcess {
        let directory = try TemporaryDirectory(prefix: "l10nd-conf")
        let config = try directory.write(settings.map { $0 + "\n" }.joined(), to: "l10nd.conf")
        return try DaemonProcess(
            resources: [PackagePaths.exampleResources] + extraRoots,
            arguments: ["--config", config, "--log-level", "info"], startTimeout: 60)
    }

    /// Tester report #9: 300 pipelined requests with replies of about 25 KB, the client
    /// reading all the while, were cut off after 63. Now every reply arrives, in order.
    @Test func aPipeliningReaderOfLargeRepliesIsNeverCutOff() throws {
        let daemon = try startDaemon(["max_output_buffer_bytes = 65536"])
        let client = try daemon.connect(timeout: 20)
        // 1,000 keys: a reply of about 25 KB.
        let keys = Array(repeating: "\"多言語化\"", count: 1000).joined(separator: ",")
        let requests = (0..<300).map { #"{"op":"batch","lang":"en","id":\#($0),"keys":[\#(keys)]}"# + "\n" }
        let sent = DispatchSemaphore(value: 0)
        let bytes = Array(requests.joined().utf8)
        let send = SendOnThread(client: client, bytes: bytes, done: sent)
        send.start()
        for id in 0..<300 {
            let line = try #require(try client.readLine(), "the daemon closed the connection after \(id) replies")
            #expect(line.utf8.count > 20_000)
            let reply = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(reply?["id"] as? Int == id, "reply \(id)")
            #expect((reply?["values"] as? [String])?.first == "Multilingualization")
        }
        #expect(sent.wait(timeout: .now() + 20) == .success)
        let server = try #require(try daemon.request(["op": "status"])["server"] as? [String: Any])
        #expect(server["connections_cut_off"] as? Int == 0, "\(server)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Tester report #10: a `table` reply of 14 MB (the client library's cached mode fetches
    /// whole tables) was cut off mid-reply. Now it reaches a reader whole.
    @Test func aFourteenMegabyteTableReachesAFastReaderWhole() throws {
        let root = try bigTableRoot(count: 10_000, valueBytes: 1_450)
        let daemon = try startDaemon(extraRoots: [root.path])
        let client = try RawSocketClient(path: daemon.socketPath, timeout: 30)
        // A lookup after the table: the connection goes on serving once the reply is out.
        let requests =
            #"{"op":"table","lang":"xx","table":"Big","id":"big"}"# + "\n"
            + #"{"op":"lookup","key":"key-000007","lang":"xx","table":"Big","id":"after"}"# + "\n"
        #expect(try client.send(Array(requests.utf8)) == .sent)
        client.finishSending()
        let received = try client.readToEnd(limit: 64 << 20)
        let lines = received.split(separator: UInt8(ascii: "\n"))
        try #require(lines.count == 2, "\(lines.count) lines in \(received.count) bytes")
        #expect(lines[0].count > 14_000_000, "a reply of \(lines[0].count) bytes")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: Any])
        let entries = try #require(reply["entries"] as? [String: String])
        #expect(entries.count == 10_000)
        #expect(entries["key-009999"]?.hasSuffix("0009999") == true)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(lines[1])) as? [String: Any])
        #expect(after["id"] as? String == "after" && (after["value"] as? String)?.hasSuffix("0000007") == true)
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Outside testers: a client pipelining `table` requests and reading their replies
    /// slowly but all the while was closed by `idle_timeout_seconds`. The socket takes more
    /// of a reply only once the reader has read about three quarters of what waits (some
    /// 180 KB), which at 120 KB/s is 1.5 s without a byte accepted. Its reading is activity
    /// (the socket's unread bytes shrinking): every reply arrives. Silent and non-reading
    /// clients still idle out (`DaemonRobustnessTests`).
    @Test func aSlowButSteadyReaderOfPipelinedTablesIsNotIdle() throws {
        // About 240 KB per reply.
        let root = try bigTableRoot(count: 2_000, valueBytes: 100)
        let daemon = try startDaemon(["idle_timeout_seconds = 1"], extraRoots: [root.path])
        let client = try RawSocketClient(path: daemon.socketPath, timeout: 10)
        let requests =
            (0..<3).map { #"{"op":"table","lang":"xx","table":"Big","id":\#($0)}"# + "\n" }.joined()
            + #"{"op":"lookup","key":"key-000007","lang":"xx","table":"Big","id":"after"}"# + "\n"
        #expect(try client.send(Array(requests.utf8)) == .sent)
        // 120 KB/s, caught up after a stall rather than slowed further by it: the pace is
        // the point of the test.
        let bytesPerSecond = 120_000.0
        let started = Date()
        var received: [UInt8] = []
        var lines = 0
        while lines < 4 {
            usleep(20_000)
            let allowed = Int(Date().timeIntervalSince(started) * bytesPerSecond) - received.count
            guard allowed > 0 else { continue }
            let chunk = try client.read(upTo: min(allowed, 16_384))
            try #require(!chunk.isEmpty, "closed after \(lines) replies, \(received.count) bytes read")
            received += chunk
            lines += chunk.count(where: { $0 == UInt8(ascii: "\n") })
        }
        let replies = received.split(separator: UInt8(ascii: "\n"))
        #expect(replies.count == 4 && replies.prefix(3).allSatisfy { $0.count > 200_000 }, "\(replies.map(\.count))")
        let server = try #require(try daemon.request(["op": "status"])["server"] as? [String: Any])
        #expect(server["connections_cut_off"] as? Int == 0, "\(server)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Tester report #11: clients sending one byte every 2 s held every connection (the idle
    /// timeout never fired) and a real client got `unavailable`. Now each is closed once its
    /// request is older than `request_timeout_seconds`, and the real client gets in.
    @Test func tricklingClientsAreClosedAtTheRequestDeadlineThenARealClientIsServed() throws {
        let daemon = try startDaemon(["max_connections = 5", "request_timeout_seconds = 1"])
        let observer = try daemon.connect()
        let deadline = Date().addingTimeInterval(10)
        while (try observer.request(["op": "status"])["server"] as? [String: Any])?["connections_current"] as? Int != 1
        {
            try #require(Date() < deadline, "connections never settled to 1")
            usleep(20_000)
        }
        let tricklers = try (0..<4).map { _ in try RawSocketClient(path: daemon.socketPath, timeout: 5) }
        let line = Array(#"{"op":"lookup","key":"保存","lang":"de"}"#.utf8)
        for trickler in tricklers { #expect(try trickler.send([line[0]]) == .sent) }
        // Every slot is taken now.
        // Refused at once, before it could send: the error line is all it gets.
        let refused = try daemon.connect().readObject()
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unavailable", "\(refused)")
        var open = Set(tricklers.indices)
        let started = Date()
        for byte in line.dropFirst() where !open.isEmpty {
            usleep(300_000)  // the trickle's pace, the point of the test
            for index in open where try tricklers[index].send([byte]) == .closedByPeer { open.remove(index) }
            try #require(Date().timeIntervalSince(started) < 15, "tricklers still open after 15 s")
        }
        #expect(open.isEmpty, "tricklers \(open) were never closed")
        let server = try #require(try observer.request(["op": "status"])["server"] as? [String: Any])
        #expect(server["requests_timed_out"] as? Int == 4, "\(server)")
        #expect(try daemon.request(["op": "lookup", "key": "保存", "lang": "de"])["value"] as? String == "Sichern")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Tester report #12: one write of 1,000 pipelined `table` requests, never read, took the
    /// daemon from 24 MB to 1.1 GB, stalled others for 8.8 s and delayed SIGTERM 8 s. Now the
    /// daemon stops taking that client's requests at the output limit: its memory grows by
    /// little, the steady client keeps its answers, and SIGTERM ends it within a few seconds.
    @Test func aTableFloodFromANonReaderIsBoundedAndSigtermIsObeyed() throws {
        // About 1.3 MB per reply.
        let root = try bigTableRoot(count: 10_000, valueBytes: 100)
        let daemon = try startDaemon(extraRoots: [root.path])
        let baseline = try DaemonBaseline(daemon)
        let steady = try SteadyLookupClient(daemon: daemon)
        let flooder = try RawSocketClient(path: daemon.socketPath, timeout: 10)
        let requests = (0..<1000).map { #"{"op":"table","lang":"xx","table":"Big","id":\#($0)}"# + "\n" }.joined()
        #expect(try flooder.send(Array(requests.utf8)) == .sent)
        // Let the daemon do whatever it will with the flood: a window for harm to show (memory
        // grown, the steady client stalled), which no event ends.
        usleep(1_500_000)
        #expect(steady.waitForAnswers(20), "the steady client stalled behind the flood")
        let rss = try #require(daemon.residentKilobytes)
        #expect(
            rss - baseline.residentKilobytes < DaemonRobustnessTests.rssGrowthLimitKiB,
            "RSS went from \(baseline.residentKilobytes) KiB to \(rss) KiB")
        let report = steady.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.slowest < 1, "the steady client waited \(report.slowest) s")
        // Requests taken: the steady client's, a few probes, and what the flood got in.
        let server = try #require(try daemon.request(["op": "status"])["server"] as? [String: Any])
        let flood = (server["requests"] as? Int ?? 0) - report.answers
        #expect(flood < 100, "the daemon took about \(flood) of the flood's 1,000 tables: \(server)")
        // The flooder is still connected, its replies unread: SIGTERM must not wait for it.
        let started = Date()
        #expect(daemon.stop(timeout: 10) == 0, "\(daemon.log)")
        let took = Date().timeIntervalSince(started)
        #expect(took < 3, "stopping took \(took) s")
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    /// Tester report #13: once the reader of l10nd's stderr pipe went away (journald
    /// restarting), the next log line killed the daemon and left its socket behind. Now the
    /// line is dropped and counted, the daemon serves on, and SIGTERM ends it cleanly.
    @Test func aStderrPipeWithoutAReaderCostsLogLinesNotTheDaemon() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let resources = try TemporaryDirectory(prefix: "l10nd-epipe")
        _ = try resources.write(#""k" = "v";"# + "\n", to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path], standardError: writeEnd)
        close(ends[0])  // the reader goes away
        try writeEnd.close()
        try expectLogLinesDroppedAndServing(daemon, resources: resources)
    }

    /// The same with the log on a full disk (`ENOSPC`): a 1 MiB tmpfs, filled. Skipped, with
    /// the reason printed, where a tmpfs cannot be mounted (not root, no mount permission).
    @Test func aLogFileOnAFullDiskCostsLogLinesNotTheDaemon() throws {
        let mountPoint = try TemporaryDirectory(prefix: "l10nd-full")
        let mount = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
        guard mount.status == 0 else {
            print("skipped aLogFileOnAFullDiskCostsLogLinesNotTheDaemon: cannot mount a tmpfs: \(mount.stderr)")
            return
        }
        defer { _ = try? ProcessRunner.run("/bin/umount", ["-l", mountPoint.path]) }
        let logPath = mountPoint.path + "/l10nd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let resources = try TemporaryDirectory(prefix: "l10nd-enospc")
        _ = try resources.write(#""k" = "v";"# + "\n", to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path], standardError: log)
        // Fill the disk, then the log file's last page, so its next byte has nowhere to go.
        for path in [mountPoint.path + "/filler", logPath] { fillUntilFull(path) }
        try expectLogLinesDroppedAndServing(daemon, resources: resources)
    }

    /// Makes the daemon log (SIGHUP reloads, logging each), then checks it dropped lines,
    /// still serves — including the reload — and exits 0 on SIGTERM, removing its socket.
    func expectLogLinesDroppedAndServing(_ daemon: DaemonProcess, resources: TemporaryDirectory) throws {
        _ = try resources.write(#""k" = "w";"# + "\n", to: "en.lproj/Localizable.strings")
        var dropped = 0
        let deadline = Date().addingTimeInterval(20)
        while dropped == 0 && Date() < deadline {
            daemon.send(signal: SIGHUP)
            usleep(100_000)
            try #require(daemon.process.isRunning, "l10nd died (status \(daemon.process.terminationStatus))")
            let status = try daemon.request(["op": "status"])
            dropped = (status["log"] as? [String: Any])?["lines_dropped"] as? Int ?? 0
        }
        #expect(dropped > 0, "no log line was dropped")
        #expect(try daemon.request(["op": "lookup", "key": "k", "lang": "en"])["value"] as? String == "w")
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "a stale socket was left behind")
    }

    /// Appends to `path` until the file system refuses (`ENOSPC`).
    func fillUntilFull(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var block = [UInt8](repeating: 0x2E, count: 4096)
        var size = block.count
        while size > 0 {
            let written = block.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, size) }
            if written < 0 && errno == EINTR { continue }
            // A short or failed write: try smaller pieces until not even one byte fits.
            if written < size { size = written > 0 ? size : size / 2 }
        }
        block.removeAll()
    }
}

/// Writes a pipelining client's requests on another thread while the test reads the replies.
final class SendOnThread: @unchecked Sendable {
    private let client: JSONLineClient
    private let bytes: [UInt8]
    private let done: DispatchSemaphore

    init(client: JSONLineClient, bytes: [UInt8], done: DispatchSemaphore) {
        self.client = client
        self.bytes = bytes
        self.done = done
    }

    func start() {
        Thread.detachNewThread { [self] in
            try? client.send(bytes: bytes)
            done.signal()
        }
    }
}
