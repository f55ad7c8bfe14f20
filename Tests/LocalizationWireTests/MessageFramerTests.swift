import LocalizationWire
import Testing

/// The framer cuts any chunking of a mixed stream into the same messages, and enforces the
/// size limit before buffering or allocating a payload.
@Suite struct MessageFramerTests {
    static let mixedStream: [UInt8] = {
        var stream: [UInt8] = []
        stream += Array(#"{"op":"status","id":1}"#.utf8) + [0x0A]
        stream += BinaryFrameCodec.encode(
            WireRequest(id: .number(2), operation: .lookup(key: "多言語化", languages: ["ja"], table: nil)))
        stream += Array("\r\n\n".utf8)
        stream += Array(#"{"op":"lookup","key":"😀\u2028","lang":["en"]}"#.utf8) + [0x0D, 0x0A]
        stream += BinaryFrameCodec.encode(WireRequest(id: .number(3), operation: .status))
        stream += BinaryFrameCodec.encode(
            WireRequest(id: .number(4), operation: .batch(keys: [], languages: [], table: nil)))
        return stream
    }()

    private func drain(_ framer: inout MessageFramer) -> [FramedMessage] {
        var messages: [FramedMessage] = []
        while let message = framer.nextMessage() { messages.append(message) }
        return messages
    }

    private func requests(_ messages: [FramedMessage]) throws -> [WireRequest] {
        try messages.map { try WireCodec.decodeRequest($0).get() }
    }

    @Test func wholeStreamYieldsEveryMessageInOrder() throws {
        var framer = MessageFramer()
        framer.append(contentsOf: Self.mixedStream)
        let messages = drain(&framer)
        #expect(messages.map(\.encoding) == [.jsonLines, .binaryFrames, .jsonLines, .binaryFrames, .binaryFrames])
        let decoded = try requests(messages)
        #expect(decoded.map(\.id) == [.number(1), .number(2), nil, .number(3), .number(4)])
        #expect(decoded[2].operation == .lookup(key: "😀\u{2028}", languages: ["en"], table: nil))
        #expect(framer.bufferedByteCount == 0)
    }

    @Test(arguments: [1, 2, 3, 5, 7, 64])
    func anyChunkingYieldsTheSameMessages(chunkSize: Int) throws {
        var whole = MessageFramer()
        whole.append(contentsOf: Self.mixedStream)
        let expected = drain(&whole)
        var framer = MessageFramer()
        var messages: [FramedMessage] = []
        var offset = 0
        while offset < Self.mixedStream.count {
            let end = min(offset + chunkSize, Self.mixedStream.count)
            Self.mixedStream[offset..<end].withUnsafeBytes { framer.append($0) }
            messages += drain(&framer)
            offset = end
        }
        #expect(messages == expected)
    }

    @Test func halfAFrameWaitsForTheRest() throws {
        let frame = BinaryFrameCodec.encode(WireRequest(id: .number(5), operation: .reload))
        var framer = MessageFramer()
        for byte in frame.dropLast() {
            framer.append(contentsOf: [byte])
            #expect(framer.nextMessage() == nil)
        }
        framer.append(contentsOf: [frame.last!])
        #expect(try requests(drain(&framer)) == [WireRequest(id: .number(5), operation: .reload)])
    }

    @Test func gigabyteLengthPrefixIsRefusedFromTheHeaderAlone() {
        var framer = MessageFramer(maxMessageBytes: 1 << 20)
        framer.append(contentsOf: [0xA5, 0x01, 0x40, 0x00, 0x00, 0x00])
        #expect(
            framer.nextMessage()
                == .streamError(
                    WireError(
                        code: .tooLarge,
                        message: "frame of 1073741824 bytes exceeds the limit of 1048576 bytes"),
                    encoding: .binaryFrames))
        #expect(framer.hasFailed)
        framer.append(contentsOf: Array(#"{"op":"status"}"#.utf8) + [0x0A])
        #expect(framer.nextMessage() == nil)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func frameAtTheLimitIsAcceptedAndOneOverIsNot() {
        var framer = MessageFramer(maxMessageBytes: 8)
        framer.append(contentsOf: [0xA5, 0x01, 0, 0, 0, 8] + [UInt8](repeating: 1, count: 8))
        #expect(framer.nextMessage() == .binaryFrame([UInt8](repeating: 1, count: 8)))
        framer.append(contentsOf: [0xA5, 0x01, 0, 0, 0, 9])
        guard case .streamError(let error, _) = framer.nextMessage() else { Issue.record("9 bytes accepted"); return }
        #expect(error.code == .tooLarge)
    }

    @Test func longLineIsRefusedBeforeItsNewlineArrives() {
        var framer = MessageFramer(maxMessageBytes: 100)
        framer.append(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: 100))
        #expect(framer.nextMessage() == nil)
        framer.append(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: 50))
        guard case .streamError(let error, _) = framer.nextMessage() else { Issue.record("long line buffered"); return }
        #expect(error.code == .tooLarge)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func lineAtTheLimitPassesEvenWithCRLF() {
        var framer = MessageFramer(maxMessageBytes: 10)
        framer.append(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: 10) + [0x0D, 0x0A])
        #expect(framer.nextMessage() == .jsonLine([UInt8](repeating: UInt8(ascii: "x"), count: 10)))
        framer.append(contentsOf: [UInt8](repeating: UInt8(ascii: "y"), count: 11) + [0x0A])
        guard case .streamError(let error, _) = framer.nextMessage() else {
            Issue.record("11-byte line accepted"); return
        }
        #expect(error.code == .tooLarge)
    }

    @Test func unknownFrameVersionIsAStreamError() {
        var framer = MessageFramer()
        framer.append(contentsOf: [0xA5, 0x02])
        guard case .streamError(let error, _) = framer.nextMessage() else { Issue.record("version 2 accepted"); return }
        #expect(error.code == .badRequest)
    }

    @Test func garbageLinesBecomeBadRequestsAndTheStreamContinues() throws {
        var framer = MessageFramer()
        framer.append(contentsOf: Array("garbage\n\u{1}\u{2}\n{\"op\":\"hello\"}\n".utf8))
        let messages = drain(&framer)
        #expect(messages.count == 3)
        let results = messages.map(WireCodec.decodeRequest)
        guard case .failure(let first) = results[0], case .failure = results[1], case .success(let hello) = results[2]
        else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect(first.error.code == .badRequest)
        #expect(hello.operation == .hello)
    }

    @Test func manySmallMessagesDoNotGrowTheBuffer() {
        var framer = MessageFramer(maxMessageBytes: 1 << 10)
        let line = Array(#"{"op":"status"}"#.utf8) + [0x0A]
        for _ in 0..<10_000 {
            framer.append(contentsOf: line + line.prefix(4))
            _ = drain(&framer)
            framer.append(contentsOf: line.dropFirst(4))
            _ = drain(&framer)
        }
        #expect(framer.bufferedByteCount == 0)
    }
}
