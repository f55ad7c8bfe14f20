import LocalizationCore
import LocalizationWire
import Testing

/// Every request and reply survives encoding and decoding in both encodings.
@Suite struct WireRoundTripTests {
    static let requests: [WireRequest] = [
        WireRequest(id: .number(1), operation: .hello),
        WireRequest(
            id: .string("a-7"), operation: .lookup(key: "多言語化", languages: ["en"], table: "Localizable")),
        WireRequest(
            id: .number(2),
            operation: .lookup(key: "files %d", languages: ["sv", "de"], table: nil, plural: .count(PluralOperands(3)))),
        // Decimals travel as text, so visible fraction digits (`v`, `f`) survive the wire.
        WireRequest(
            id: .number(12),
            operation: .lookup(key: "h", languages: ["fr"], table: nil, plural: .count(PluralOperands("1.50")!))),
        WireRequest(
            id: .number(13),
            operation: .lookup(key: "h", languages: ["en"], table: nil, plural: .count(PluralOperands("1.0")!))),
        WireRequest(
            id: .number(14),
            operation: .lookup(key: "h", languages: ["fr"], table: nil, plural: .count(PluralOperands("1.2c6")!))
        ),
        // Found by scripts/fuzz: `001` was sent as the integer 1 and came back as another count.
        WireRequest(
            id: .number(15),
            operation: .lookup(key: "h", languages: ["ru"], table: nil, plural: .count(PluralOperands("001")!))),
        // Protocol 1.3: one count per argument, null for one that is not a number.
        WireRequest(
            id: .number(16),
            operation: .lookup(
                key: "%d files in %d folders", languages: ["fr"], table: nil,
                plural: .counts([PluralOperands(3), PluralOperands(1)]))),
        WireRequest(
            id: .number(17),
            operation: .lookup(
                key: "%@: %d of %.1f", languages: ["ru", "en"], table: "Plurals",
                plural: .counts([nil, PluralOperands(-21), PluralOperands("1.50"), PluralOperands("001"), nil]))),
        WireRequest(
            id: .number(18), operation: .lookup(key: "k", languages: [], table: nil, plural: .counts([]))),
        WireRequest(
            id: .number(19),
            operation: .lookup(
                key: "k", languages: ["ar"], table: nil,
                plural: .counts(Array(repeating: PluralOperands(Int.max), count: WireOperation.maximumCounts)))),
        WireRequest(
            id: .number(3),
            operation: .lookup(
                key: "😀 \"quoted\" \\ \n\t\u{2028}", languages: [], table: nil, plural: .count(PluralOperands(-1)))),
        // Protocol 1.4: format arguments for the finished string, with and without counts.
        WireRequest(
            id: .number(20),
            operation: .lookup(
                key: "%1$@ has %2$d new messages", languages: ["ja"], table: nil,
                arguments: [.string("Ana \"名\""), .integer(Int64.min), .double(-1.5e300)])),
        WireRequest(
            id: .number(21),
            operation: .lookup(
                key: "%d", languages: ["fr"], table: nil, plural: .count(PluralOperands(2)), arguments: [])),
        WireRequest(
            id: .number(22),
            operation: .batch(
                keys: ["a", "%d files"], languages: ["ru"], table: nil,
                arguments: [nil, [.integer(21), .double(0.25)]])),
        WireRequest(id: .number(4), operation: .batch(keys: ["a", "b", "日本語"], languages: ["ja"], table: "Main")),
        WireRequest(id: .number(5), operation: .batch(keys: [], languages: [], table: nil)),
        WireRequest(id: .number(6), operation: .table(languages: ["zh-Hant-TW", "zh"], table: "InfoPlist")),
        WireRequest(id: .number(7), operation: .subscribe),
        WireRequest(id: .number(8), operation: .reload),
        WireRequest(id: .number(9), operation: .status),
        WireRequest(id: .number(10), operation: .languages),
        WireRequest(id: .number(4_294_967_295), operation: .missing),
        WireRequest(id: .number(11), operation: .reset),
        WireRequest(id: .number(12), operation: .metrics),
    ]

    static let messages: [WireServerMessage] = [
        .reply(
            id: .number(1),
            .lookup(WireLookupResult(value: "Multilingualization", found: true, language: "en", generation: 3))),
        .reply(
            id: .number(2), .lookup(WireLookupResult(value: "missing.key", found: false, language: nil, generation: 0))),
        .reply(id: .number(3), .batch(WireBatchResult(values: ["ア", "b"], found: [true, false], generation: 9))),
        .reply(
            id: .number(10),
            .lookup(
                WireLookupResult(
                    value: "%1$@さん", found: true, language: "ja", generation: 3, formatted: "Anaさん"))),
        .reply(
            id: .number(11),
            .lookup(WireLookupResult(value: "k %d", found: false, language: nil, generation: 1, formatted: "k 3"))),
        .reply(
            id: .number(12),
            .batch(
                WireBatchResult(
                    values: ["a", "%d файл"], found: [true, true], generation: 9, formatted: [nil, "21 файл"]))),
        .reply(
            id: .number(4),
            .table(WireTableResult(entries: ["k": "v", "鍵": "値"], languages: ["k": "ja", "鍵": "en"], generation: 2))),
        .reply(id: .number(5), .table(WireTableResult(entries: [:], generation: UInt64(Int64.max)))),
        .reply(id: .number(6), .ok),
        .reply(
            id: .number(7),
            .fields([
                "protocol": "1.0", "connections": 3, "ratio": 0.25, "up": true, "none": nil,
                "languages": ["en", "ja"], "nested": ["deep": [1, 2, ["x": "y"]]],
            ])),
        .reply(id: .number(8), .error(WireError(code: .unknownOp, message: "unknown op \"x\""))),
        .reply(id: .number(9), .error(WireError(code: WireError.Code(rawValue: "from_the_future"), message: "✓"))),
        .event(.changed(generation: 4, changes: [WireTableChange(language: "ja", table: "Localizable")])),
        .event(.changed(generation: 5, changes: [])),
    ]

    @Test(arguments: requests)
    func jsonRequestRoundTrip(_ request: WireRequest) throws {
        let line = JSONLineCodec.encode(request)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        let decoded = try JSONLineCodec.decodeRequest(Array(line.dropLast())).get()
        #expect(decoded == request)
    }

    @Test(arguments: requests)
    func binaryRequestRoundTrip(_ request: WireRequest) throws {
        let frame = BinaryFrameCodec.encode(request)
        #expect(frame[0] == BinaryFrameHeader.magic)
        let decoded = try BinaryFrameCodec.decodeRequest(Array(frame.dropFirst(BinaryFrameHeader.size))).get()
        var expected = request
        if case .string = request.id { expected.id = .number(0) }
        #expect(decoded == expected)
    }

    @Test(arguments: messages)
    func jsonServerMessageRoundTrip(_ message: WireServerMessage) throws {
        let line = JSONLineCodec.encode(message)
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(try JSONLineCodec.decodeServerMessage(Array(line.dropLast())) == message)
    }

    @Test(arguments: messages)
    func binaryServerMessageRoundTrip(_ message: WireServerMessage) throws {
        let frame = BinaryFrameCodec.encode(message)
        // Every id above is a number, which frames carry unchanged.
        #expect(try BinaryFrameCodec.decodeServerMessage(Array(frame.dropFirst(BinaryFrameHeader.size))) == message)
    }

    @Test func jsonRepliesMatchTheDesignExamples() {
        let lookup = JSONLineCodec.encode(
            .reply(
                id: nil,
                .lookup(WireLookupResult(value: "Multilingualization", found: true, language: "en", generation: 3))))
        #expect(
            String(decoding: lookup, as: UTF8.self)
                == #"{"ok":true,"value":"Multilingualization","found":true,"lang":"en","generation":3}"# + "\n")
        let event = JSONLineCodec.encode(
            .event(.changed(generation: 4, changes: [WireTableChange(language: "ja", table: "Localizable")])))
        #expect(
            String(decoding: event, as: UTF8.self)
                == #"{"event":"changed","generation":4,"changes":[{"lang":"ja","table":"Localizable"}]}"# + "\n")
        let error = JSONLineCodec.encode(.reply(id: .string("q"), .error(WireError(code: .badRequest, message: "no"))))
        #expect(
            String(decoding: error, as: UTF8.self)
                == #"{"id":"q","ok":false,"error":{"code":"bad_request","message":"no"}}"# + "\n")
    }

    @Test func fieldsDropEnvelopeAndReservedNames() throws {
        let line = JSONLineCodec.encode(
            .reply(id: .number(1), .fields(["ok": false, "id": 9, "value": "x", "generation": 5])))
        #expect(String(decoding: line, as: UTF8.self) == #"{"id":1,"ok":true,"generation":5}"# + "\n")
    }

    @Test func escapesControlCharactersAndLineSeparators() {
        let line = JSONLineCodec.encode(
            .reply(id: nil, .fields(["s": .string("a\u{0}\u{1f}\r\n\t\u{2028}\u{2029}\"\\é😀")])))
        let text = String(decoding: line, as: UTF8.self)
        #expect(text == #"{"ok":true,"s":"a\u0000\u001f\r\n\t\u2028\u2029\"\\é😀"}"# + "\n")
    }
}
