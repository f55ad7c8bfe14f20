import Foundation
import Glibc
import LocalizationDaemon
import LocalizationWire
import Testing

/// One bad client never harms the others, and no client can make the server hang or grow.
@Suite struct SocketServerLimitsTests {
    @Test func oversizedLineClosesOnlyThatConnection() throws {
        let running = try RunningServer(limits: ServerLimits(maxMessageBytes: 1024))
        defer { running.shutDown() }
        let bad = try running.client()
        let good = try running.client()
        bad.send(String(repeating: "x", count: 4000))
        guard case .reply(nil, .error(let error)) = try bad.readServerMessage() else {
            Issue.record("expected too_large")
            return
        }
        #expect(error.code == .tooLarge)
        #expect(bad.waitForClose())
        good.send(#"{"op":"hello","id":1}"# + "\n")
        #expect(try good.readLine() == #"{"id":1,"ok":true,"protocol":1}"#)
    }

    @Test func gigabyteLengthPrefixIsRefusedInBinary() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let client = try running.client()
        client.send([0xA5, 0x01, 0x40, 0x00, 0x00, 0x00, 0x02])
        let message = try #require(client.readMessage())
        #expect(message.encoding == .binaryFrames)
        guard case .reply(_, .error(let error)) = try WireCodec.decodeServerMessage(message) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.code == .tooLarge)
        #expect(client.waitForClose())
    }

    @Test func halfAFrameThenSilenceDoesNotBlockOthers() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let stalled = try running.client()
        let frame = BinaryFrameCodec.encode(WireRequest(id: .number(1), operation: .status))
        stalled.send(Array(frame.prefix(4)))
        let halfLine = try running.client()
        halfLine.send(#"{"op":"lookup","key":"#)
        let other = try running.client()
        for id in 1...20 {
            other.send(WireRequest(id: .number(Int64(id)), operation: .hello), as: .binaryFrames)
            #expect(try other.readServerMessage(timeout: 2) == .reply(id: .number(Int64(id)), .fields(["protocol": 1])))
        }
        stalled.send(Array(frame.dropFirst(4)))
        #expect(try stalled.readServerMessage().isReply(id: 1))
    }

    @Test func threeHundredConcurrentConnectionsAreServed() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let clients = try (0..<300).map { _ in try running.client() }
        for (index, client) in clients.enumerated() {
            client.send(#"{"op":"lookup","key":"k\#(index)","id":\#(index)}"# + "\n")
        }
        for (index, client) in clients.enumerated() {
            #expect(
                try client.readServerMessage()
                    == .reply(
                        id: .number(Int64(index)),
                        .lookup(WireLookupResult(value: "«k\(index)»", found: true, language: "en", generation: 1))))
        }
        #expect(running.server.statistics.connectionsCurrent == 300)
        #expect(running.server.statistics.connectionsAccepted == 300)
    }

    @Test func connectionsOverTheLimitAreRefusedWithAnError() throws {
        let running = try RunningServer(limits: ServerLimits(maxConnections: 3))
        defer { running.shutDown() }
        let admitted = try (0..<3).map { _ in try running.client() }
        for client in admitted {
            client.send(#"{"op":"hello"}"# + "\n")
            _ = try client.readServerMessage()
        }
        let refused = try running.client()
        #expect(
            try refused.readLine()
                == #"{"ok":false,"error":{"code":"unavailable","message":"l10nd is at its connection limit (max_connections = 3); try again later"}}"#
        )
        #expect(refused.waitForClose())
        #expect(running.server.statistics.connectionsRefused == 1)
        admitted[0].send(#"{"op":"hello","id":2}"# + "\n")
        #expect(try admitted[0].readServerMessage().isReply(id: 2))
    }

    @Test func idleConnectionsAreClosedButSubscribersAreNot() throws {
        let running = try RunningServer(limits: ServerLimits(idleTimeout: 0.3))
        defer { running.shutDown() }
        let idle = try running.client()
        let subscriber = try running.client()
        subscriber.send(#"{"op":"subscribe"}"# + "\n")
        #expect(try subscriber.readLine() == #"{"ok":true}"#)
        #expect(idle.waitForClose(timeout: 5))
        #expect(running.server.statistics.connectionsTimedOut == 1)
        running.server.broadcast(.changed(generation: 1, changes: []))
        #expect(try subscriber.readLine() == #"{"event":"changed","generation":1,"changes":[]}"#)
    }
}

extension WireServerMessage {
    /// Whether this is a reply to the request with integer id `id`.
    func isReply(id: Int64) -> Bool {
        if case .reply(.number(id)?, _) = self { return true }
        return false
    }
}
