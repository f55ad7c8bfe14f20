import Foundation
import Glibc
import LocalizationDaemon
import LocalizationWire
import Testing

/// Requests and replies over a real connected Unix socket, in both encodings.
@Suite struct SocketServerProtocolTests {
    @Test func jsonLookupOverARealSocket() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let client = try running.client()
        client.send(#"{"op":"lookup","key":"多言語化","lang":"en","table":"Localizable","id":7}"# + "\n")
        #expect(
            try client.readLine() == #"{"id":7,"ok":true,"value":"«多言語化»","found":true,"lang":"en","generation":1}"#)
    }

    @Test func pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsSlow() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let client = try running.client()
        var batch = #"{"op":"reload","id":1}"# + "\n"
        for id in 2...50 { batch += #"{"op":"lookup","key":"k\#(id)","id":\#(id)}"# + "\n" }
        batch += #"{"op":"nope","id":51}"# + "\n"
        client.send(batch)
        for id in 1...51 {
            guard case .reply(let replyID, let reply) = try client.readServerMessage() else {
                Issue.record("event instead of reply")
                return
            }
            #expect(replyID == .number(Int64(id)))
            switch id {
            case 1: #expect(reply == .fields(["generation": 2]))
            case 51: #expect(reply == .error(WireError(code: .unknownOp, message: #"unknown op "nope""#)))
            default:
                #expect(
                    reply == .lookup(WireLookupResult(value: "«k\(id)»", found: true, language: "en", generation: 1)))
            }
        }
    }

    /// The fast path (a reply given at once, encoded straight into the output) keeps the
    /// order: lookups behind a slow request wait for it, in both encodings, and the lookups
    /// after it are answered in order whether or not something was owed when they came.
    @Test(arguments: [WireEncoding.jsonLines, .binaryFrames])
    func repliesGivenAtOnceKeepTheRequestOrder(encoding: WireEncoding) throws {
        let running = try RunningServer(handler: TestHandler(answersLookupsAtOnce: true))
        defer { running.shutDown() }
        let client = try running.client()
        var requests = WireCodec.encode(WireRequest(id: .number(1), operation: .reload), as: encoding)
        for id in 2...300 {
            requests += WireCodec.encode(
                WireRequest(id: .number(Int64(id)), operation: .lookup(key: "k\(id)", languages: ["ja"], table: nil)),
                as: encoding)
        }
        client.send(requests)
        for id in 1...300 {
            guard case .reply(let replyID, let reply) = try client.readServerMessage() else {
                Issue.record("event instead of reply")
                return
            }
            #expect(replyID == .number(Int64(id)))
            if id == 1 {
                #expect(reply == .fields(["generation": 2]))
            } else {
                #expect(
                    reply == .lookup(WireLookupResult(value: "«k\(id)»", found: true, language: "ja", generation: 1)))
            }
        }
        // Nothing owed now: each of these goes straight to the output.
        var more: [UInt8] = []
        for id in 301...600 {
            more += WireCodec.encode(
                WireRequest(id: .number(Int64(id)), operation: .lookup(key: "k\(id)", languages: ["ja"], table: nil)),
                as: encoding)
        }
        client.send(more)
        for id in 301...600 {
            guard case .reply(let replyID, let reply) = try client.readServerMessage() else {
                Issue.record("event instead of reply")
                return
            }
            #expect(replyID == .number(Int64(id)))
            #expect(reply == .lookup(WireLookupResult(value: "«k\(id)»", found: true, language: "ja", generation: 1)))
        }
        #expect(running.server.statistics.requests == 600)
    }

    @Test func binaryFramesAreAnsweredInBinary() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let client = try running.client()
        client.send(
            WireRequest(id: .number(9), operation: .batch(keys: ["a", "😀"], languages: ["ja"], table: nil)),
            as: .binaryFrames)
        client.send(WireRequest(id: .number(10), operation: .hello), as: .jsonLines)
        client.send(WireRequest(id: .number(11), operation: .table(languages: [], table: "T")), as: .binaryFrames)
        let first = try #require(client.readMessage())
        #expect(first.encoding == .binaryFrames)
        #expect(
            try WireCodec.decodeServerMessage(first)
                == .reply(
                    id: .number(9),
                    .batch(WireBatchResult(values: ["«a»", "«😀»"], found: [true, true], generation: 1))))
        #expect(try client.readLine() == #"{"id":10,"ok":true,"protocol":1}"#)
        #expect(
            try client.readServerMessage()
                == .reply(
                    id: .number(11), .table(WireTableResult(entries: ["a": "A"], languages: ["a": "en"], generation: 1))
                ))
    }

    @Test func garbageGetsBadRequestAndTheConnectionKeepsWorking() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let client = try running.client()
        client.send("garbage\n\u{7}\u{0}\n[]\n" + #"{"op":"lookup"}"# + "\n" + #"{"op":"hello","id":"h"}"# + "\n")
        for _ in 0..<4 {
            guard case .reply(nil, .error(let error)) = try client.readServerMessage() else {
                Issue.record("expected an error reply")
                return
            }
            #expect(error.code == .badRequest)
        }
        #expect(try client.readServerMessage() == .reply(id: .string("h"), .fields(["protocol": 1])))
        #expect(running.server.statistics.errors == 4)
    }

    @Test func handlerErrorsAndPeerCredentialsReachTheClient() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let client = try running.client()
        client.send(#"{"op":"missing","id":1}"# + "\n" + #"{"op":"status","id":2}"# + "\n")
        #expect(try client.readLine() == #"{"id":1,"ok":false,"error":{"code":"forbidden","message":"not for you"}}"#)
        #expect(
            try client.readServerMessage()
                == .reply(
                    id: .number(2), .fields(["uid": .integer(Int64(getuid())), "pid": .integer(Int64(getpid()))])))
    }

    @Test func subscribersReceiveBroadcastsInTheirOwnEncoding() throws {
        let running = try RunningServer()
        defer { running.shutDown() }
        let jsonSubscriber = try running.client()
        let binarySubscriber = try running.client()
        let bystander = try running.client()
        jsonSubscriber.send(#"{"op":"subscribe","id":1}"# + "\n")
        binarySubscriber.send(WireRequest(id: .number(2), operation: .subscribe), as: .binaryFrames)
        #expect(try jsonSubscriber.readLine() == #"{"id":1,"ok":true}"#)
        #expect(try binarySubscriber.readServerMessage() == .reply(id: .number(2), .ok))
        #expect(running.eventually { running.server.statistics.subscribers == 2 })
        let event = WireEvent.changed(generation: 4, changes: [WireTableChange(language: "ja", table: "Localizable")])
        running.server.broadcast(event)
        #expect(
            try jsonSubscriber.readLine()
                == #"{"event":"changed","generation":4,"changes":[{"lang":"ja","table":"Localizable"}]}"#)
        let binaryEvent = try #require(binarySubscriber.readMessage())
        #expect(binaryEvent.encoding == .binaryFrames)
        #expect(try WireCodec.decodeServerMessage(binaryEvent) == .event(event))
        #expect(bystander.readMessage(timeout: 0.2) == nil)
        // A subscriber still gets replies, ordered with its events.
        jsonSubscriber.send(#"{"op":"lookup","key":"k","id":3}"# + "\n")
        #expect(
            try jsonSubscriber.readServerMessage()
                == .reply(
                    id: .number(3), .lookup(WireLookupResult(value: "«k»", found: true, language: "en", generation: 1)))
        )
    }

    @Test func socatCanTalkToTheDaemon() throws {
        let socat = ["/usr/bin/socat", "/bin/socat"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let socat else {
            print("skipping: socat is not installed")
            return
        }
        let running = try RunningServer()
        defer { running.shutDown() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: socat)
        process.arguments = ["-t", "2", "-", "UNIX-CONNECT:\(running.path)"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        input.fileHandleForWriting.write(
            Data((#"{"op":"hello","id":1}"# + "\n" + #"{"op":"lookup","key":"k","lang":["sv","de"]}"# + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"id":1,"ok":true,"protocol":1}"#,
                #"{"ok":true,"value":"«k»","found":true,"lang":"sv","generation":1}"#,
            ])
    }

    @Test func gracefulStopAnswersPendingRequestsThenRemovesTheSocket() throws {
        let running = try RunningServer(handler: TestHandler(reloadDelay: 0.3))
        defer { running.shutDown() }
        let client = try running.client()
        client.send(#"{"op":"reload","id":1}"# + "\n")
        #expect(running.eventually { running.server.statistics.requests == 1 })
        let server = running.server
        let stopped = DispatchSemaphore(value: 0)
        server.stop { stopped.signal() }
        #expect(try client.readLine() == #"{"id":1,"ok":true,"generation":2}"#)
        #expect(client.waitForClose())
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(!FileManager.default.fileExists(atPath: running.path))
        #expect((try? TestClient(path: running.path)) == nil)
    }
}
