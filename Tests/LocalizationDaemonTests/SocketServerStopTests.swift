import Foundation
import Glibc
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import Synchronization
import Testing

/// A stop while requests are still with the handler (chaos round 3: a `map` waiting for a
/// compile got the end of the connection at SIGINT, not an answer): each such request is
/// answered `unavailable`, in its place in the order, once the drain time is up, and only
/// then is the connection closed.
@Suite struct SocketServerStopTests {
    /// Answers everything as ``TestHandler`` does, but `map` never: a compile that outlasts
    /// the stop. Keeps the reply closures, so they are not released before the test ends.
    final class NeverEndingCompile: WireRequestHandler, Sendable {
        let held = Mutex<[@Sendable (WireReply, [SegmentSlab]) -> Void]>([])

        func handle(_ request: WireRequest, from peer: PeerInfo, reply: @escaping @Sendable (WireReply) -> Void) {
            TestHandler().handle(request, from: peer, reply: reply)
        }

        func handleMap(from peer: PeerInfo, reply: @escaping @Sendable (WireReply, [SegmentSlab]) -> Void) {
            held.withLock { $0.append(reply) }
        }
    }

    @Test(arguments: [WireEncoding.binaryFrames, .jsonLines])
    func requestsInFlightAtAStopAreAnsweredUnavailable(encoding: WireEncoding) throws {
        let handler = NeverEndingCompile()
        let running = try RunningServer(limits: ServerLimits(drainTimeout: 0.3), handler: handler)
        defer { running.shutDown() }
        let client = try running.client()
        client.send(WireRequest(id: .number(1), operation: .hello), as: encoding)
        client.send(WireRequest(id: .number(2), operation: .map), as: encoding)
        client.send(WireRequest(id: .number(3), operation: .status), as: encoding)
        guard case .reply(.number(1), .fields) = try client.readServerMessage() else {
            Issue.record("hello was not answered first")
            return
        }
        #expect(running.eventually { handler.held.withLock { $0.count } == 1 })
        let stopped = DispatchSemaphore(value: 0)
        running.server.stop { stopped.signal() }
        // The map, then the status answered behind it: the order holds to the end.
        guard case .reply(.number(2), .error(let error)) = try client.readServerMessage() else {
            Issue.record("the map in flight was not answered at the stop")
            return
        }
        #expect(error.code == .unavailable, "\(error)")
        #expect(error.message.contains("stopped before answering"), "\(error)")
        guard case .reply(.number(3), .fields) = try client.readServerMessage() else {
            Issue.record("the status behind the map was not answered")
            return
        }
        #expect(client.waitForClose())
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(running.server.statistics.connectionsCurrent == 0)
    }
}
