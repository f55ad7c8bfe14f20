import Dispatch
import Foundation
import Glibc
import LocalizationDaemon
import LocalizationWire
import Testing

/// Flow control: a client's requests are read only while its unsent replies are under the
/// output limit, so a client that reads is never cut off, whatever it asks, and one that
/// does not read costs at most the limit. Time limits end the clients that stall instead:
/// a request that trickles in, a socket that takes nothing for the idle timeout or while
/// the server stops.
@Suite struct SocketServerFlowControlTests {
    /// `count` lookups of `big:SIZE`, pipelined in one string.
    func bigLookups(_ count: Int, size: Int) -> String {
        (0..<count).map { #"{"op":"lookup","key":"big:\#(size)","id":\#($0)}"# + "\n" }.joined()
    }

    @Test func aPipeliningReaderOfLargeRepliesIsNeverCutOff() throws {
        // A limit of 64 KiB against 300 replies of 25 KB: 7 MB in all, sent as fast as read.
        let running = try RunningServer(limits: ServerLimits(maxOutputBufferBytes: 64 * 1024))
        defer { running.shutDown() }
        let client = try running.client()
        let sent = sendInBackground(bigLookups(300, size: 25_000), on: client.descriptor)
        for id in 0..<300 {
            let reply = try client.readServerMessage(timeout: 10)
            guard case .reply(.number(Int64(id))?, .lookup(let result)) = reply else {
                Issue.record("reply \(id): \(reply)")
                break
            }
            #expect(result.value.utf8.count == 25_000)
        }
        #expect(sent.wait(timeout: .now() + 10) == .success)
        #expect(running.server.statistics.connectionsCutOff == 0)
    }

    @Test func aReplyLargerThanTheLimitReachesAReaderWhole() throws {
        let running = try RunningServer(limits: ServerLimits(maxOutputBufferBytes: 64 * 1024))
        defer { running.shutDown() }
        let client = try running.client()
        client.send(bigLookups(1, size: 14_000_000) + #"{"op":"hello","id":"after"}"# + "\n")
        // 60 s: under ThreadSanitizer on a loaded machine (load 17 on 2 cores) the 14 MB
        // take 23 s to encode, send and decode, with 6 s of CPU; a normal build takes 4.
        guard case .reply(_, .lookup(let result)) = try client.readServerMessage(timeout: 60) else {
            Issue.record("no 14 MB reply")
            return
        }
        #expect(result.value.utf8.count == 14_000_000)
        #expect(try client.readServerMessage().isReply(id: "after"))
        #expect(running.server.statistics.connectionsCutOff == 0)
    }

    @Test func aClientThatDoesNotReadIsNotReadFromAndGetsEverythingOnceItReads() throws {
        let running = try RunningServer(limits: ServerLimits(maxOutputBufferBytes: 256 * 1024))
        defer { running.shutDown() }
        let hog = try running.client()
        let polite = try running.client()
        // 64 replies of 64 KiB: far more than the kernel's socket buffers plus the limit.
        hog.send(bigLookups(64, size: 65_536))
        // The server takes a few, up to the limit (and what the kernel buffers), then waits.
        #expect(running.eventually { running.server.statistics.requests >= 4 })
        // A window in which nothing may happen (no event marks "stopped reading"): a server
        // that went on dispatching for the hog would count more requests by its end.
        usleep(300_000)
        let taken = running.server.statistics.requests
        #expect(taken < 20, "the server went on dispatching for a client that does not read: \(taken)")
        polite.send(#"{"op":"hello","id":1}"# + "\n")
        #expect(try polite.readLine() == #"{"id":1,"ok":true,"protocol":1}"#)
        // Reading late loses nothing: every reply arrives, in order.
        for id in 0..<64 {
            #expect(try hog.readServerMessage(timeout: 10).isReply(id: Int64(id)))
        }
        #expect(running.server.statistics.connectionsCutOff == 0)
    }

    @Test func aClientThatFinishesSendingGetsTheRepliesFlowControlHeldBack() throws {
        let running = try RunningServer(limits: ServerLimits(maxOutputBufferBytes: 64 * 1024))
        defer { running.shutDown() }
        let client = try running.client()
        // The requests past the limit wait in the server when the end of input arrives.
        client.send(bigLookups(20, size: 65_536))
        shutdown(client.descriptor, Int32(SHUT_WR))
        // The server has begun and is held at the limit: 20 replies of 64 KiB are far more
        // than it and the kernel's buffers take before the client reads.
        #expect(running.eventually { running.server.statistics.requests >= 2 })
        for id in 0..<20 {
            #expect(try client.readServerMessage(timeout: 10).isReply(id: Int64(id)))
        }
        #expect(client.waitForClose())
    }

    @Test func aClientWhoseRepliesStayUnreadIsClosedAtTheIdleTimeout() throws {
        let running = try RunningServer(limits: ServerLimits(idleTimeout: 0.5, maxOutputBufferBytes: 64 * 1024))
        defer { running.shutDown() }
        let hog = try running.client()
        hog.send(bigLookups(64, size: 65_536))
        #expect(running.eventually(timeout: 10) { running.server.statistics.connectionsCutOff == 1 })
        #expect(hog.waitForClose(timeout: 10))
    }

    @Test func aTricklingClientIsClosedAtTheRequestDeadlineAndOthersGetIn() throws {
        let running = try RunningServer(limits: ServerLimits(maxConnections: 2, requestTimeout: 0.5))
        defer { running.shutDown() }
        let tricklers = try (0..<2).map { _ in try running.client() }
        let started = Date()
        // One byte every 100 ms: the idle timeout (300 s) alone would never end them.
        let line = Array(#"{"op":"lookup","key":"slow","id":1}"#.utf8)
        var closed = false
        for byte in line {
            for trickler in tricklers where !trickler.send([byte]) { closed = true }
            if closed { break }
            usleep(100_000)  // the trickle's pace, the point of the test
        }
        for trickler in tricklers { #expect(trickler.waitForClose(timeout: 5)) }
        #expect(Date().timeIntervalSince(started) >= 0.45, "closed before the deadline")
        #expect(running.server.statistics.requestsTimedOut == 2)
        #expect(running.eventually { running.server.statistics.connectionsCurrent == 0 })
        let real = try running.client()
        real.send(#"{"op":"hello","id":2}"# + "\n")
        #expect(try real.readLine() == #"{"id":2,"ok":true,"protocol":1}"#)
    }

    @Test func blankLinesDoNotKeepAConnectionFromIdlingOut() throws {
        let running = try RunningServer(limits: ServerLimits(idleTimeout: 0.5, requestTimeout: 60))
        defer { running.shutDown() }
        let client = try running.client()
        let started = Date()
        // Paced on purpose: a blank line every 100 ms, well inside the idle timeout.
        while client.send("\n"), Date().timeIntervalSince(started) < 10 { usleep(100_000) }
        #expect(Date().timeIntervalSince(started) < 5, "blank lines kept the connection open")
        #expect(running.server.statistics.connectionsTimedOut == 1)
    }

    @Test func aRequestArrivingInPiecesWithinTheDeadlineIsServed() throws {
        let running = try RunningServer(limits: ServerLimits(requestTimeout: 2))
        defer { running.shutDown() }
        let client = try running.client()
        for piece in [#"{"op":"hel"#, #"lo","id""#, ":3}\n"] {
            client.send(piece)
            usleep(100_000)  // paced on purpose: the pieces arrive apart, within the deadline
        }
        #expect(try client.readLine() == #"{"id":3,"ok":true,"protocol":1}"#)
        #expect(running.server.statistics.requestsTimedOut == 0)
    }

    @Test func stoppingDoesNotWaitForAClientThatDoesNotRead() throws {
        let running = try RunningServer(
            limits: ServerLimits(maxOutputBufferBytes: 64 * 1024, drainTimeout: 30, drainStallTimeout: 0.5))
        defer { running.shutDown() }
        let hog = try running.client()
        hog.send(bigLookups(64, size: 65_536))
        #expect(running.eventually { running.server.statistics.requests >= 2 })
        let started = Date()
        running.shutDown()
        #expect(Date().timeIntervalSince(started) < 5, "the stop waited \(Date().timeIntervalSince(started)) s")
        #expect(hog.waitForClose())
    }

    @Test func aSubscriberThatLeavesEventsUnreadIsCutOff() throws {
        let running = try RunningServer(limits: ServerLimits(maxOutputBufferBytes: 4096))
        defer { running.shutDown() }
        let subscriber = try running.client()
        subscriber.send(#"{"op":"subscribe"}"# + "\n")
        #expect(try subscriber.readLine() == #"{"ok":true}"#)
        // Events of about 3 KB each, never read: past the kernel's buffers and the limit.
        let changes = (0..<100).map { WireTableChange(language: "ja", table: "Table\($0)") }
        for generation in 0..<400 {
            running.server.broadcast(.changed(generation: UInt64(generation), changes: changes))
        }
        #expect(running.eventually(timeout: 10) { running.server.statistics.connectionsCutOff == 1 })
        #expect(running.eventually { running.server.statistics.subscribers == 0 })
    }

    /// Sends `text` on `descriptor` from another thread (a pipelining client writes while it
    /// reads); the semaphore is signalled once everything is sent or the peer hung up.
    func sendInBackground(_ text: String, on descriptor: Int32) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let bytes = Array(text.utf8)
        Thread.detachNewThread {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
            done.signal()
        }
        return done
    }
}

extension WireServerMessage {
    /// Whether this is a reply to the request with string id `id`.
    func isReply(id: String) -> Bool {
        if case .reply(.string(id)?, _) = self { return true }
        return false
    }
}
